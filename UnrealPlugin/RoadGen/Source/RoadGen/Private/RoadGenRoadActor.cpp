#include "RoadGenRoadActor.h"

#include "Components/SplineComponent.h"
#include "RoadGenRoadComponent.h"

ARoadGenRoadActor::ARoadGenRoadActor()
{
	Spline = CreateDefaultSubobject<USplineComponent>(TEXT("Spline"));
	SetRootComponent(Spline);
	Road = CreateDefaultSubobject<URoadGenRoadComponent>(TEXT("Road"));
}
