// The one place that calls the RoadGen library (through RoadGen.hpp): FRoadGenRoad in, plain
// Unreal data and FDynamicMesh3s out. Thread-safe and UObject-free, so it runs on a worker
// thread; nothing of roadgen.h leaks into this header.
#pragma once

#include <memory>

#include "CoreMinimal.h"
#include "DynamicMesh/DynamicMesh3.h"
#include "RoadGenTypes.h"

namespace roadgen
{
	class Follower;
}

/** What one generation produced. */
struct ROADGENEDITOR_API FRoadGenResult
{
	/** False when the library refused the input; Error says why. */
	bool bOk = false;
	FString Error;
	/** FRoadGenLive::Sync only: nothing changed since the last Sync (nothing else is filled). */
	bool bUnchanged = false;

	/** One mesh per feature kind (RoadGenFeature::Road, Junction, Block), world centimetres. */
	UE::Geometry::FDynamicMesh3 Meshes[RoadGenFeature::Count];
	/** Per kind: the feature id of triangle group g is FeatureIds[kind][g - 1]. */
	TArray<FString> FeatureIds[RoadGenFeature::Count];
	/** Triangles FDynamicMesh3 refused (non-manifold or duplicate); expected 0. */
	int32 RefusedTriangles = 0;

	TArray<FRoadGenBlock> Blocks;
	TArray<FRoadGenDiagnostic> Diagnostics;
	int32 NumJunctions = 0;
	int32 NumRoadPieces = 0;
};

namespace RoadGen
{
	/** True when the linked library is the version of the header this plugin was built with. */
	ROADGENEDITOR_API bool IsLibraryCompatible();

	/**
	 * Makes the calling thread (the game thread, from StartupModule) one of the library's worker
	 * threads, so that the updates FollowRoads makes every tick run on it instead of being handed
	 * to a worker and waited for. Before any other library call; empty on success, else why not
	 * (calls then hand over as before).
	 */
	ROADGENEDITOR_API FString JoinWorkerPool();

	/**
	 * Builds the network of Roads with Settings (centimetres, Unreal's frame). With bBuildMeshes
	 * false only the 2D network (blocks, diagnostics, counts) is filled.
	 */
	ROADGENEDITOR_API FRoadGenResult Run(const TArray<FRoadGenRoad>& Roads, const FRoadGenNetworkSettings& Settings, bool bBuildMeshes);
}

/**
 * Follows the level's roads while they are edited (RoadGen.hpp's roadgen::Follower): each Sync
 * hands the library only the roads that differ from the last Sync's, so that only the junctions,
 * road pieces, blocks and meshes they reach are built again; the result is always what Run
 * gives for the same roads. UObject-free; one caller at a time.
 */
class ROADGENEDITOR_API FRoadGenLive
{
public:
	FRoadGenLive();
	~FRoadGenLive();
	FRoadGenLive(const FRoadGenLive&) = delete;
	FRoadGenLive& operator=(const FRoadGenLive&) = delete;

	/**
	 * Brings the network up to Roads built with Settings. False, with OutResult.Error, when the
	 * library refused (the next Sync generates everything again). On success either
	 * OutResult.bUnchanged (nothing changed since the last Sync), or OutResult holds the 2D
	 * results, and the meshes and feature ids of each kind whose OutKindChanged is true: only
	 * those mesh components need new meshes.
	 */
	bool Sync(const TArray<FRoadGenRoad>& Roads, const FRoadGenNetworkSettings& Settings, FRoadGenResult& OutResult,
		bool (&OutKindChanged)[RoadGenFeature::Count]);

	/** Forgets the network: the next Sync generates everything. */
	void Reset();

private:
	std::unique_ptr<roadgen::Follower> Follower;
};
