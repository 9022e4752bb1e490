// SYNTAX-CHECK STAND-INS, NOT ENGINE HEADERS.
// Mirrors: Engine/Source/Runtime/GeometryFramework/Public/Components/DynamicMeshComponent.h
// (UE_API_NOTES B.4); the members the plugin uses.
#pragma once

#include "Components/PrimitiveComponent.h"
#include "DynamicMesh/DynamicMesh3.h"

class UMaterialInterface;

enum class EDynamicMeshComponentRenderUpdateMode { NoUpdate = 0, FastUpdate = 1, FullUpdate = 2 };

class UDynamicMeshComponent : public UPrimitiveComponent
{
public:
	void SetMesh(UE::Geometry::FDynamicMesh3&& MoveMesh);
	void EditMesh(TFunctionRef<void(UE::Geometry::FDynamicMesh3&)> EditFunc,
		EDynamicMeshComponentRenderUpdateMode UpdateMode = EDynamicMeshComponentRenderUpdateMode::FullUpdate);
	void ConfigureMaterialSet(const TArray<UMaterialInterface*>& NewMaterialSet);
};
