#include "RoadGenNetworkActor.h"

#include "Components/DynamicMeshComponent.h"
#include "Components/SceneComponent.h"
#include "DynamicMesh/DynamicMesh3.h"
#include "Materials/MaterialInterface.h"

ARoadGenNetworkActor::ARoadGenNetworkActor()
{
	USceneComponent* Root = CreateDefaultSubobject<USceneComponent>(TEXT("Root"));
	SetRootComponent(Root);
	// The meshes are in world space: keep the actor at the origin (its transform is not applied
	// by the library).
	RoadMesh = CreateDefaultSubobject<UDynamicMeshComponent>(TEXT("RoadMesh"));
	RoadMesh->SetupAttachment(Root);
	JunctionMesh = CreateDefaultSubobject<UDynamicMeshComponent>(TEXT("JunctionMesh"));
	JunctionMesh->SetupAttachment(Root);
	BlockMesh = CreateDefaultSubobject<UDynamicMeshComponent>(TEXT("BlockMesh"));
	BlockMesh->SetupAttachment(Root);
}

UDynamicMeshComponent* ARoadGenNetworkActor::GetMeshComponent(int32 FeatureKind) const
{
	switch (FeatureKind)
	{
	case RoadGenFeature::Road:
		return RoadMesh;
	case RoadGenFeature::Junction:
		return JunctionMesh;
	case RoadGenFeature::Block:
		return BlockMesh;
	default:
		return nullptr;
	}
}

TArray<UMaterialInterface*> ARoadGenNetworkActor::GetMaterialSet() const
{
	TArray<UMaterialInterface*> Set;
	Set.SetNum(RoadGenMaterialSlot::Count);
	Set[RoadGenMaterialSlot::Carriageway] = CarriagewayMaterial;
	Set[RoadGenMaterialSlot::Curb] = CurbMaterial;
	Set[RoadGenMaterialSlot::Sidewalk] = SidewalkMaterial;
	Set[RoadGenMaterialSlot::Junction] = JunctionMaterial;
	Set[RoadGenMaterialSlot::Block] = BlockMaterial;
	return Set;
}

void ARoadGenNetworkActor::SetMeshes(UE::Geometry::FDynamicMesh3 (&Meshes)[RoadGenFeature::Count])
{
	const bool All[RoadGenFeature::Count] = {true, true, true};
	SetMeshes(Meshes, All);
}

void ARoadGenNetworkActor::SetMeshes(UE::Geometry::FDynamicMesh3 (&Meshes)[RoadGenFeature::Count], const bool (&Kinds)[RoadGenFeature::Count])
{
	const TArray<UMaterialInterface*> Materials = GetMaterialSet();
	for (int32 Kind = 0; Kind < RoadGenFeature::Count; ++Kind)
	{
		if (!Kinds[Kind])
		{
			continue;
		}
		if (UDynamicMeshComponent* Component = GetMeshComponent(Kind))
		{
			// UE_API_NOTES B.4: SetMesh(FDynamicMesh3&&), then slot i = material id i.
			Component->SetMesh(MoveTemp(Meshes[Kind]));
			Component->ConfigureMaterialSet(Materials);
		}
	}
}

void ARoadGenNetworkActor::ClearMeshes()
{
	for (int32 Kind = 0; Kind < RoadGenFeature::Count; ++Kind)
	{
		if (UDynamicMeshComponent* Component = GetMeshComponent(Kind))
		{
			Component->EditMesh([](UE::Geometry::FDynamicMesh3& Mesh) { Mesh.Clear(); });
		}
	}
}

#if WITH_EDITOR
void ARoadGenNetworkActor::PostEditUndo()
{
	Super::PostEditUndo();
	OnRestoredByUndo().Broadcast(this);
}

ARoadGenNetworkActor::FOnRestoredByUndo& ARoadGenNetworkActor::OnRestoredByUndo()
{
	static FOnRestoredByUndo Delegate;
	return Delegate;
}
#endif
