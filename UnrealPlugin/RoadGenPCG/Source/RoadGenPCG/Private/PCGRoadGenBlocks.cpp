#include "PCGRoadGenBlocks.h"

#include "Components/SplineComponent.h"
#include "Data/PCGSplineData.h"
#include "PCGContext.h"
#include "PCGPin.h"
#include "RoadGenRunner.h"
#include "Runtime/Launch/Resources/Version.h"

#define LOCTEXT_NAMESPACE "PCGRoadGenBlocks"

DEFINE_LOG_CATEGORY_STATIC(LogRoadGenPCG, Log, All);

namespace
{
	/** EInterpCurveMode (UE_API_NOTES B.2) to the spline point type the library reads (B.1, B.2). */
	uint8 PointTypeOf(EInterpCurveMode Mode)
	{
		switch (Mode)
		{
		case CIM_Linear:
			return ESplinePointType::Linear;
		case CIM_Constant:
			return ESplinePointType::Constant;
		case CIM_CurveAutoClamped:
			return ESplinePointType::CurveClamped;
		case CIM_CurveUser:
		case CIM_CurveBreak:
			return ESplinePointType::CurveCustomTangent;
		default:
			return ESplinePointType::Curve;
		}
	}

	/** A PCG spline as a road: its curve points in world space (thin, as for USplineComponent). */
	FRoadGenRoad ToRoad(const UPCGSplineData& Spline, const FString& Id, double Width)
	{
		FRoadGenRoad Road;
		Road.Id = Id;
		Road.Width = Width;
		Road.bClosedLoop = Spline.SplineStruct.IsClosedLoop();
		// Positions in SplineStruct are local to GetTransform() (UE_API_NOTES B.9); tangents
		// transform as vectors, like USplineComponent's world-space getters (B.1).
		const FTransform Transform = Spline.SplineStruct.GetTransform();
		const FInterpCurveVector& Curve = Spline.SplineStruct.GetSplinePointsPosition();
		Road.Points.Reserve(Curve.Points.Num());
		for (const FInterpCurvePoint<FVector>& In : Curve.Points)
		{
			FRoadGenSplinePoint& Point = Road.Points.AddDefaulted_GetRef();
			Point.Location = Transform.TransformPosition(In.OutVal);
			Point.ArriveTangent = Transform.TransformVector(In.ArriveTangent);
			Point.LeaveTangent = Transform.TransformVector(In.LeaveTangent);
			Point.PointType = PointTypeOf(In.InterpMode);
		}
		return Road;
	}

	UPCGSplineData* NewSplineData(FPCGContext* Context)
	{
#if ENGINE_MAJOR_VERSION == 5 && ENGINE_MINOR_VERSION < 5
		return NewObject<UPCGSplineData>();
#else
		return FPCGContext::NewObject_AnyThread<UPCGSplineData>(Context);
#endif
	}

	/** Emits Ring as a closed linear spline at z = Height on Pin with Tags. */
	void EmitRing(FPCGContext* Context, const FRoadGenRing& Ring, double Height, const FName& Pin, const TArray<FString>& Tags)
	{
		TArray<FSplinePoint> Points;
		Points.Reserve(Ring.Points.Num());
		for (int32 Index = 0; Index < Ring.Points.Num(); ++Index)
		{
			const FVector2D& P = Ring.Points[Index];
			Points.Add(FSplinePoint(static_cast<float>(Index), FVector(P.X, P.Y, Height), ESplinePointType::Linear));
		}
		UPCGSplineData* Data = NewSplineData(Context);
		Data->Initialize(Points, /*bInClosedLoop=*/true, FTransform::Identity);
		FPCGTaggedData& Out = Context->OutputData.TaggedData.Emplace_GetRef();
		Out.Data = Data;
		Out.Pin = Pin;
		for (const FString& Tag : Tags)
		{
			Out.Tags.Add(Tag);
		}
	}

	/**
	 * Emits Polygon: its outer ring (Rings[0]) on OuterPin with Tags, and each hole (Rings[1],
	 * Rings[2], ...) on HolePin with Tags plus "RoadGenHole" and "RoadGenRing:<ring index>".
	 * Rings keep the library's point order.
	 */
	void EmitPolygon(FPCGContext* Context, const FRoadGenPolygon& Polygon, double Height, const FName& OuterPin, const FName& HolePin,
		const TArray<FString>& Tags)
	{
		if (Polygon.Rings.IsEmpty())
		{
			return;
		}
		EmitRing(Context, Polygon.Rings[0], Height, OuterPin, Tags);
		for (int32 Ring = 1; Ring < Polygon.Rings.Num(); ++Ring)
		{
			TArray<FString> HoleTags = Tags;
			HoleTags.Add(FString(PCGRoadGenTags::Hole));
			HoleTags.Add(FString::Printf(TEXT("RoadGenRing:%d"), Ring));
			EmitRing(Context, Polygon.Rings[Ring], Height, HolePin, HoleTags);
		}
	}
}

#if WITH_EDITOR
FName UPCGRoadGenBlocksSettings::GetDefaultNodeName() const
{
	return FName(TEXT("RoadGenBlocks"));
}

FText UPCGRoadGenBlocksSettings::GetDefaultNodeTitle() const
{
	return LOCTEXT("NodeTitle", "RoadGen Blocks");
}

EPCGSettingsType UPCGRoadGenBlocksSettings::GetType() const
{
	return EPCGSettingsType::Spatial;
}
#endif

TArray<FPCGPinProperties> UPCGRoadGenBlocksSettings::InputPinProperties() const
{
	TArray<FPCGPinProperties> Pins;
	Pins.Emplace(PCGRoadGenPins::Roads, EPCGDataType::Spline);
	return Pins;
}

TArray<FPCGPinProperties> UPCGRoadGenBlocksSettings::OutputPinProperties() const
{
	TArray<FPCGPinProperties> Pins;
	Pins.Emplace(PCGRoadGenPins::Blocks, EPCGDataType::Spline);
	Pins.Emplace(PCGRoadGenPins::BlockHoles, EPCGDataType::Spline);
	Pins.Emplace(PCGRoadGenPins::Lots, EPCGDataType::Spline);
	Pins.Emplace(PCGRoadGenPins::LotHoles, EPCGDataType::Spline);
	return Pins;
}

FPCGElementPtr UPCGRoadGenBlocksSettings::CreateElement() const
{
	return MakeShared<FPCGRoadGenBlocksElement>();
}

bool FPCGRoadGenBlocksElement::ExecuteInternal(FPCGContext* Context) const
{
	const UPCGRoadGenBlocksSettings* Settings = Context->GetInputSettings<UPCGRoadGenBlocksSettings>();
	if (Settings == nullptr)
	{
		return true;
	}
	// Road ids follow the input order ("pcg_road_<n>"), so block ids are stable while the
	// inputs keep their order.
	const TArray<FPCGTaggedData> Inputs = Context->InputData.GetInputsByPin(PCGRoadGenPins::Roads);
	TArray<FRoadGenRoad> Roads;
	for (int32 Index = 0; Index < Inputs.Num(); ++Index)
	{
		if (const UPCGSplineData* Spline = Cast<UPCGSplineData>(Inputs[Index].Data))
		{
			Roads.Add(ToRoad(*Spline, FString::Printf(TEXT("pcg_road_%d"), Index), Settings->RoadWidth));
		}
	}
	const FRoadGenResult Result = RoadGen::Run(Roads, Settings->Network, /*bBuildMeshes=*/false);
	if (!Result.bOk)
	{
		UE_LOG(LogRoadGenPCG, Error, TEXT("RoadGen Blocks: %s"), *Result.Error);
		return true;
	}
	for (const FRoadGenBlock& Block : Result.Blocks)
	{
		const FString BlockTag = FString::Printf(TEXT("RoadGenBlock:%s"), *Block.Id);
		EmitPolygon(Context, Block.Outline, Settings->OutlineHeight, PCGRoadGenPins::Blocks, PCGRoadGenPins::BlockHoles, {BlockTag});
		for (int32 Lot = 0; Lot < Block.Lots.Num(); ++Lot)
		{
			EmitPolygon(Context, Block.Lots[Lot], Settings->OutlineHeight, PCGRoadGenPins::Lots, PCGRoadGenPins::LotHoles,
				{BlockTag, FString::Printf(TEXT("RoadGenLot:%d"), Lot)});
		}
	}
	return true;
}

#undef LOCTEXT_NAMESPACE
