// The one generated actor of a level: the network's meshes in UDynamicMeshComponents (roads,
// junctions, blocks), the settings they were made with and the roads they were made from.
#pragma once

#include "CoreMinimal.h"
#include "GameFramework/Actor.h"
#include "RoadGenTypes.h"

#include "RoadGenNetworkActor.generated.h"

class UDynamicMeshComponent;
class UMaterialInterface;
namespace UE::Geometry { class FDynamicMesh3; }

/**
 * The generated road network of a level (made and updated by URoadGenEditorSubsystem). Its
 * meshes are always the whole network's. Generate, Regenerate and Clear rebuild it with a full
 * generation; URoadGenEditorSubsystem::FollowRoads (the Follow Roads tool) keeps it up to date
 * with the library's incremental update (rg_update, ABI 0.2 on, through FRoadGenLive), which
 * gives the same result as a full generation and replaces only the mesh components of the kinds
 * that changed. From ABI 0.3 the editor module makes the game thread one of the library's
 * workers (rg_workers_start), so those updates run on it.
 */
UCLASS(ClassGroup = (RoadGen), meta = (DisplayName = "RoadGen Network"))
class ROADGEN_API ARoadGenNetworkActor : public AActor
{
	GENERATED_BODY()
public:
	ARoadGenNetworkActor();

	/** Settings of the next Generate / Regenerate. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "RoadGen")
	FRoadGenNetworkSettings Settings;

	/** Material of slot 0: road carriageways. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "RoadGen|Materials")
	TObjectPtr<UMaterialInterface> CarriagewayMaterial;

	/** Material of slot 1: curb faces and platform sides. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "RoadGen|Materials")
	TObjectPtr<UMaterialInterface> CurbMaterial;

	/** Material of slot 2: sidewalks and curb tops. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "RoadGen|Materials")
	TObjectPtr<UMaterialInterface> SidewalkMaterial;

	/** Material of slot 3: junction surfaces. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "RoadGen|Materials")
	TObjectPtr<UMaterialInterface> JunctionMaterial;

	/** Material of slot 4: block (lot) tops. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "RoadGen|Materials")
	TObjectPtr<UMaterialInterface> BlockMaterial;

	UPROPERTY(VisibleAnywhere, BlueprintReadOnly, Category = "RoadGen|Meshes")
	TObjectPtr<UDynamicMeshComponent> RoadMesh;

	UPROPERTY(VisibleAnywhere, BlueprintReadOnly, Category = "RoadGen|Meshes")
	TObjectPtr<UDynamicMeshComponent> JunctionMesh;

	UPROPERTY(VisibleAnywhere, BlueprintReadOnly, Category = "RoadGen|Meshes")
	TObjectPtr<UDynamicMeshComponent> BlockMesh;

	/** The roads of the last generation (transacted: undo restores them and rebuilds the meshes). */
	UPROPERTY()
	TArray<FRoadGenRoad> GeneratedFrom;

	/** The blocks of the last generation. */
	UPROPERTY(VisibleAnywhere, BlueprintReadOnly, Category = "RoadGen|Result")
	TArray<FRoadGenBlock> Blocks;

	/** The diagnostics of the last generation. */
	UPROPERTY(VisibleAnywhere, BlueprintReadOnly, Category = "RoadGen|Result")
	TArray<FRoadGenDiagnostic> Diagnostics;

	/** Feature ids of the road mesh: triangle group g belongs to RoadIds[g - 1]. */
	UPROPERTY(VisibleAnywhere, BlueprintReadOnly, Category = "RoadGen|Result")
	TArray<FString> RoadIds;

	/** Feature ids of the junction mesh, by triangle group as for RoadIds. */
	UPROPERTY(VisibleAnywhere, BlueprintReadOnly, Category = "RoadGen|Result")
	TArray<FString> JunctionIds;

	/** Feature ids of the block mesh, by triangle group as for RoadIds. */
	UPROPERTY(VisibleAnywhere, BlueprintReadOnly, Category = "RoadGen|Result")
	TArray<FString> BlockIds;

	/** The mesh component of a feature kind (RoadGenFeature::Road, Junction, Block). */
	UDynamicMeshComponent* GetMeshComponent(int32 FeatureKind) const;

	/** The material set of every mesh component, in RoadGenMaterialSlot order. */
	TArray<UMaterialInterface*> GetMaterialSet() const;

	/** Moves one mesh per feature kind into the components and sets their materials. */
	void SetMeshes(UE::Geometry::FDynamicMesh3 (&Meshes)[RoadGenFeature::Count]);

	/** As SetMeshes, for the kinds whose Kinds entry is true only; the others keep theirs. */
	void SetMeshes(UE::Geometry::FDynamicMesh3 (&Meshes)[RoadGenFeature::Count], const bool (&Kinds)[RoadGenFeature::Count]);

	/** Empties every mesh component. */
	void ClearMeshes();

#if WITH_EDITOR
	/**
	 * Mesh contents are not transacted (UE_API_NOTES B.4: UDynamicMesh skips its mesh when
	 * transacting), so after undo/redo GeneratedFrom is right but the meshes are not: this
	 * broadcasts OnRestoredByUndo, and the editor module rebuilds the meshes from GeneratedFrom.
	 */
	virtual void PostEditUndo() override;

	DECLARE_MULTICAST_DELEGATE_OneParam(FOnRestoredByUndo, ARoadGenNetworkActor*);
	/** Called after undo or redo touched a network actor. */
	static FOnRestoredByUndo& OnRestoredByUndo();
#endif
};
