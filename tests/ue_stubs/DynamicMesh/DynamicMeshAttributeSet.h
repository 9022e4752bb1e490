// SYNTAX-CHECK STAND-INS, NOT ENGINE HEADERS.
// Mirrors: GeometryCore DynamicMesh/DynamicMeshAttributeSet.h, DynamicMeshOverlay.h and
// DynamicMeshTriangleAttribute.h (UE_API_NOTES B.3); the members the plugin uses.
#pragma once

#include "DynamicMesh/DynamicMesh3.h"

namespace UE::Geometry
{
	enum class EMeshResult { Ok = 0, Failed_NotAVertex, Failed_NotATriangle };

	template <typename RealType, int ElementSize, typename VectorType>
	class TDynamicMeshVectorOverlay
	{
	public:
		int AppendElement(const VectorType& Value);
		EMeshResult SetTriangle(int TriangleID, const FIndex3i& TriElements, bool bAllowElementFreeing = true);
	};
	using FDynamicMeshUVOverlay = TDynamicMeshVectorOverlay<float, 2, FVector2f>;
	using FDynamicMeshNormalOverlay = TDynamicMeshVectorOverlay<float, 3, FVector3f>;

	template <typename AttribValueType, int AttribDimension>
	class TDynamicMeshScalarTriangleAttribute
	{
	public:
		void SetValue(int TriangleID, AttribValueType Value);
	};
	using FDynamicMeshMaterialAttribute = TDynamicMeshScalarTriangleAttribute<int32, 1>;

	class FDynamicMeshAttributeSet
	{
	public:
		FDynamicMeshUVOverlay* PrimaryUV();
		FDynamicMeshNormalOverlay* PrimaryNormals();
		void EnableMaterialID();
		FDynamicMeshMaterialAttribute* GetMaterialID();
	};
}
