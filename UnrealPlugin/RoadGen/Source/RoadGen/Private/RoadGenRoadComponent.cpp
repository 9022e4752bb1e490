#include "RoadGenRoadComponent.h"

#include "Components/SplineComponent.h"
#include "GameFramework/Actor.h"

USplineComponent* URoadGenRoadComponent::FindSpline() const
{
	const AActor* Owner = GetOwner();
	return Owner != nullptr ? Owner->FindComponentByClass<USplineComponent>() : nullptr;
}

FString URoadGenRoadComponent::GetEffectiveRoadId() const
{
	if (!RoadId.IsEmpty())
	{
		return RoadId;
	}
	const AActor* Owner = GetOwner();
	return Owner != nullptr ? Owner->GetName() : GetName();
}

bool URoadGenRoadComponent::MakeRoadInput(FRoadGenRoad& OutRoad) const
{
	const USplineComponent* Spline = FindSpline();
	if (Spline == nullptr)
	{
		return false;
	}
	FRoadGenRoad Road;
	Road.Id = GetEffectiveRoadId();
	Road.Width = Width;
	Road.Layer = Layer;
	Road.bClosedLoop = Spline->IsClosedLoop();
	Road.Profile = Profile;
	Road.bOverrideCornerRadius = bOverrideCornerRadius;
	Road.CornerRadius = CornerRadiusOverride;
	// UE_API_NOTES B.1: world-space locations and tangents (tangents per unit of input key) and
	// the point type, read through the accessors (never SplineCurves directly).
	const int32 NumPoints = Spline->GetNumberOfSplinePoints();
	Road.Points.Reserve(NumPoints);
	for (int32 Index = 0; Index < NumPoints; ++Index)
	{
		FRoadGenSplinePoint& Point = Road.Points.AddDefaulted_GetRef();
		Point.Location = Spline->GetLocationAtSplinePoint(Index, ESplineCoordinateSpace::World);
		Point.ArriveTangent = Spline->GetArriveTangentAtSplinePoint(Index, ESplineCoordinateSpace::World);
		Point.LeaveTangent = Spline->GetLeaveTangentAtSplinePoint(Index, ESplineCoordinateSpace::World);
		Point.PointType = static_cast<uint8>(Spline->GetSplinePointType(Index));
	}
	OutRoad = MoveTemp(Road);
	return true;
}
