// SYNTAX-CHECK STAND-INS, NOT ENGINE HEADERS.
// Mirrors: Engine/Source/Runtime/GeometryCore/Public/DynamicMesh/DynamicMesh3.h and
// IndexTypes.h (FIndex3i) (UE_API_NOTES B.3); the members the plugin uses.
#pragma once

#include "CoreMinimal.h"

namespace UE::Geometry
{
	struct FIndex3i
	{
		int A, B, C;
		FIndex3i();
		FIndex3i(int ValA, int ValB, int ValC);
	};

	class FDynamicMeshAttributeSet;

	class FDynamicMesh3
	{
	public:
		FDynamicMesh3();
		FDynamicMesh3(const FDynamicMesh3&);
		FDynamicMesh3(FDynamicMesh3&&);
		FDynamicMesh3& operator=(const FDynamicMesh3&);
		FDynamicMesh3& operator=(FDynamicMesh3&&);

		int AppendVertex(const FVector3d& Position);
		int AppendTriangle(const FIndex3i& TriVertices, int GroupID = 0);
		int AppendTriangle(int Vertex0, int Vertex1, int Vertex2, int GroupID = 0);
		void EnableTriangleGroups(int InitialGroupID = 0);
		void EnableAttributes();
		FDynamicMeshAttributeSet* Attributes();
		void Clear();
	};
}
