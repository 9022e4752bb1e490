// SYNTAX-CHECK STAND-INS, NOT ENGINE HEADERS.
// Mirrors: PCG plugin PCGSettings.h (UE_API_NOTES B.9): the UPCGSettings overrides the plugin uses.
#pragma once

#include "CoreMinimal.h"
#include "UObject/Object.h"
#include "PCGElement.h"
#include "PCGPin.h"

enum class EPCGSettingsType : uint8 { InputOutput, Spatial, Density, Blueprint, Metadata, Filter, Sampler, Spawner, Subgraph, Debug, Generic, Param, HierarchicalGeneration, ControlFlow, PointOps, GraphParameters, Reroute, GPU, DynamicMesh };

class UPCGSettings : public UObject
{
public:
#if WITH_EDITOR
	virtual FName GetDefaultNodeName() const;
	virtual FText GetDefaultNodeTitle() const;
	virtual EPCGSettingsType GetType() const;
#endif

protected:
	virtual TArray<FPCGPinProperties> InputPinProperties() const;
	virtual TArray<FPCGPinProperties> OutputPinProperties() const;
	virtual FPCGElementPtr CreateElement() const = 0;
};
