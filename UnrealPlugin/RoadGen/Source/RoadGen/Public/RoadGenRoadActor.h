// A road ready to draw: a spline with the RoadGen road settings next to it.
#pragma once

#include "CoreMinimal.h"
#include "GameFramework/Actor.h"

#include "RoadGenRoadActor.generated.h"

class USplineComponent;
class URoadGenRoadComponent;

/** An actor with a USplineComponent (its root) and a URoadGenRoadComponent. */
UCLASS(ClassGroup = (RoadGen), meta = (DisplayName = "RoadGen Road"))
class ROADGEN_API ARoadGenRoadActor : public AActor
{
	GENERATED_BODY()
public:
	ARoadGenRoadActor();

	UPROPERTY(VisibleAnywhere, BlueprintReadOnly, Category = "RoadGen")
	TObjectPtr<USplineComponent> Spline;

	UPROPERTY(VisibleAnywhere, BlueprintReadOnly, Category = "RoadGen")
	TObjectPtr<URoadGenRoadComponent> Road;
};
