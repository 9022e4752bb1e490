// Generate / Regenerate / Clear the level's road network, callable from Editor Utility Widgets
// (node "Get RoadGenEditorSubsystem"), the Scriptable Tool and C++.
#pragma once

#include "CoreMinimal.h"
#include "EditorSubsystem.h"
#include "RoadGenRunner.h"
#include "RoadGenTypes.h"

#include "RoadGenEditorSubsystem.generated.h"

class ARoadGenNetworkActor;
class UWorld;
struct FRoadGenResult;

UCLASS()
class ROADGENEDITOR_API URoadGenEditorSubsystem : public UEditorSubsystem
{
	GENERATED_BODY()
public:
	virtual void Initialize(FSubsystemCollectionBase& Collection) override;
	virtual void Deinitialize() override;

	/**
	 * Reads every road of the editor level (actors with a URoadGenRoadComponent and a spline),
	 * builds the network on a worker thread and writes it into the level's RoadGen Network actor
	 * (made if missing), as one undoable transaction. Diagnostics go to the "RoadGen" message log.
	 * Returns false when nothing was generated; OutMessage says what happened.
	 */
	UFUNCTION(BlueprintCallable, Category = "RoadGen")
	bool Generate(FString& OutMessage);

	/**
	 * Builds again from the roads recorded at the last Generate, with the network actor's current
	 * settings and materials (after editing them), as one undoable transaction.
	 */
	UFUNCTION(BlueprintCallable, Category = "RoadGen")
	bool Regenerate(FString& OutMessage);

	/** Empties the network actor's meshes and results, as one undoable transaction. */
	UFUNCTION(BlueprintCallable, Category = "RoadGen")
	bool Clear(FString& OutMessage);

	/**
	 * Follows the level's roads (the Follow Roads tool calls it every frame): when they differ
	 * from the last call's, only the roads that changed go to the library, which builds again
	 * only the junctions, road pieces and blocks they reach, and only the mesh components of the
	 * kinds that changed get new meshes. Cheap when nothing changed. The first call (or one
	 * after Generate, Regenerate, Clear, undo or new settings) builds everything; with no
	 * network actor yet it runs Generate. Not a transaction of its own: the spline edits are the
	 * undoable steps, and the next call follows what their undo brings back. A call that changed
	 * the network marks the actor's package dirty, so the followed result is saved with the
	 * level. Diagnostics are not
	 * sent to the message log (Generate does that). False when the library refused the roads.
	 */
	UFUNCTION(BlueprintCallable, Category = "RoadGen")
	bool FollowRoads(FString& OutMessage);

	/** The roads of a world, read from their splines (thin: see URoadGenRoadComponent). */
	static TArray<FRoadGenRoad> CollectRoads(UWorld* World);

private:
	static UWorld* GetEditorWorld();
	static ARoadGenNetworkActor* FindNetworkActor(UWorld* World);

	/** Runs the library on a worker thread; a progress dialog appears when it takes a while. */
	static FRoadGenResult RunWithProgress(const TArray<FRoadGenRoad>& Roads, const FRoadGenNetworkSettings& Settings, bool& bOutCancelled);

	/** Runs the library (with progress) and reports; false on failure or cancel. */
	static bool Compute(const TArray<FRoadGenRoad>& Roads, const FRoadGenNetworkSettings& Settings, FRoadGenResult& OutResult, FString& OutMessage);

	/** Writes a result into Actor; call inside an open transaction. */
	static void Apply(ARoadGenNetworkActor& Actor, const TArray<FRoadGenRoad>& Roads, FRoadGenResult& Result);

	static void WriteResult(ARoadGenNetworkActor& Actor, const TArray<FRoadGenRoad>& Roads, FRoadGenResult& Result);
	static void ReportDiagnostics(const FRoadGenResult& Result, const FString& Summary);

	/** After undo/redo: rebuilds the meshes from the restored GeneratedFrom (not transacted). */
	void HandleRestoredByUndo(ARoadGenNetworkActor* Actor);

	FDelegateHandle UndoHandle;

	/** The network FollowRoads keeps between calls. */
	FRoadGenLive Live;
};
