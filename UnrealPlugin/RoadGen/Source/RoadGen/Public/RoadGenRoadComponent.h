// The road settings a designer adds next to a USplineComponent (or gets with ARoadGenRoadActor).
#pragma once

#include "CoreMinimal.h"
#include "Components/ActorComponent.h"
#include "RoadGenTypes.h"

#include "RoadGenRoadComponent.generated.h"

class USplineComponent;

/** Marks the actor's spline as a road for RoadGen and holds that road's settings. */
UCLASS(ClassGroup = (RoadGen), meta = (BlueprintSpawnableComponent), HideCategories = (Activation, Cooking, Collision))
class ROADGEN_API URoadGenRoadComponent : public UActorComponent
{
	GENERATED_BODY()
public:
	/** Stable id of the road; empty: the owning actor's name. Ids of results derive from it. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "RoadGen")
	FString RoadId;

	/** Carriageway width, curb to curb (cm). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "RoadGen", meta = (ClampMin = "1", Units = "cm"))
	double Width = RoadGenDefaultRoadWidthCm;

	/** Grade level: roads on different layers that cross in the middle do not meet (bridges). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "RoadGen")
	int32 Layer = 0;

	/** This road's own cross-section (curb and sidewalks); unset values use the network's. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "RoadGen")
	FRoadGenProfileOverride Profile;

	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "RoadGen", meta = (InlineEditConditionToggle))
	bool bOverrideCornerRadius = false;

	/**
	 * Corner radius for the junction corners beside this road (cm); a corner between two roads
	 * takes the smaller of their radii. Unset: the network's corner radius.
	 */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "RoadGen", meta = (EditCondition = "bOverrideCornerRadius", ClampMin = "0", Units = "cm"))
	double CornerRadiusOverride = 0.0;

	/** The spline this road reads: the first USplineComponent of the owning actor (or null). */
	USplineComponent* FindSpline() const;

	/** The id the library gets: RoadId, or the owning actor's name when RoadId is empty. */
	FString GetEffectiveRoadId() const;

	/**
	 * The road as the library reads it: every spline point's world location, arrive and leave
	 * tangents and type, plus this component's settings. False (and OutRoad untouched) when the
	 * actor has no spline.
	 */
	bool MakeRoadInput(FRoadGenRoad& OutRoad) const;
};
