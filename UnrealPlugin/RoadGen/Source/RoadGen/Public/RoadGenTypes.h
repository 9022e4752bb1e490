// Plain data passed between the level, the library runner and the PCG node. Lengths are Unreal
// centimetres, positions Unreal world space (left-handed, z up); the C ABI converts them in one
// place (RG_UNITS_CENTIMETRES, RG_FRAME_LEFT_HANDED_Z_UP).
#pragma once

#include "CoreMinimal.h"

#include "RoadGenTypes.generated.h"

/** Carriageway width of a new road, curb to curb (7 m, two lanes). */
inline constexpr double RoadGenDefaultRoadWidthCm = 700.0;

/**
 * Material slots of the generated meshes: the triangle material ids, and the order of the material
 * set of every generated UDynamicMeshComponent. Equal to the C ABI's RG_SLOT_* (checked with
 * static_assert where both are visible, in RoadGenRunner.cpp).
 */
namespace RoadGenMaterialSlot
{
	inline constexpr int32 Carriageway = 0;
	inline constexpr int32 Curb = 1;
	inline constexpr int32 Sidewalk = 2;
	inline constexpr int32 Junction = 3;
	inline constexpr int32 Block = 4;
	inline constexpr int32 Count = 5;
}

/** Which generated mesh a feature goes to (the C ABI's RgFeatureKind order). */
namespace RoadGenFeature
{
	inline constexpr int32 Road = 0;
	inline constexpr int32 Junction = 1;
	inline constexpr int32 Block = 2;
	inline constexpr int32 Count = 3;
}

/** One spline point as the library reads it (world space, tangents per unit of input key). */
USTRUCT()
struct ROADGEN_API FRoadGenSplinePoint
{
	GENERATED_BODY()
public:
	UPROPERTY()
	FVector Location = FVector::ZeroVector;

	UPROPERTY()
	FVector ArriveTangent = FVector::ZeroVector;

	UPROPERTY()
	FVector LeaveTangent = FVector::ZeroVector;

	/** ESplinePointType::Type value (equal to the C ABI's RG_POINT_*). */
	UPROPERTY()
	uint8 PointType = 0;
};

/** A road's own cross-section; each value is used only when its toggle is on. */
USTRUCT(BlueprintType)
struct ROADGEN_API FRoadGenProfileOverride
{
	GENERATED_BODY()
public:
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "RoadGen", meta = (InlineEditConditionToggle))
	bool bOverrideCurbHeight = false;

	/** Height of the curb above the carriageway (cm). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "RoadGen", meta = (EditCondition = "bOverrideCurbHeight", ClampMin = "0", Units = "cm"))
	double CurbHeight = 0.0;

	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "RoadGen", meta = (InlineEditConditionToggle))
	bool bOverrideCurbWidth = false;

	/** Width of the curb's top (cm). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "RoadGen", meta = (EditCondition = "bOverrideCurbWidth", ClampMin = "0", Units = "cm"))
	double CurbWidth = 0.0;

	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "RoadGen", meta = (InlineEditConditionToggle))
	bool bOverrideSidewalkLeft = false;

	/** Sidewalk width on the left, looking along the spline (cm). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "RoadGen", meta = (EditCondition = "bOverrideSidewalkLeft", ClampMin = "0", Units = "cm"))
	double SidewalkLeft = 0.0;

	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "RoadGen", meta = (InlineEditConditionToggle))
	bool bOverrideSidewalkRight = false;

	/** Sidewalk width on the right, looking along the spline (cm). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "RoadGen", meta = (EditCondition = "bOverrideSidewalkRight", ClampMin = "0", Units = "cm"))
	double SidewalkRight = 0.0;
};

/** One input road: what is read from a USplineComponent and its URoadGenRoadComponent. */
USTRUCT()
struct ROADGEN_API FRoadGenRoad
{
	GENERATED_BODY()
public:
	/** Stable id (ids of the results are derived from it). */
	UPROPERTY()
	FString Id;

	UPROPERTY()
	TArray<FRoadGenSplinePoint> Points;

	/** Carriageway width, curb to curb (cm). */
	UPROPERTY()
	double Width = RoadGenDefaultRoadWidthCm;

	UPROPERTY()
	int32 Layer = 0;

	UPROPERTY()
	bool bClosedLoop = false;

	UPROPERTY()
	FRoadGenProfileOverride Profile;

	/** This road's own junction corner radius (cm), when bOverrideCornerRadius is set. */
	UPROPERTY()
	bool bOverrideCornerRadius = false;

	UPROPERTY()
	double CornerRadius = 0.0;
};

/**
 * Settings of a generation. Each value is used only when its toggle is on; otherwise the library's
 * own default applies (so the defaults live in one place, the Rust core).
 */
USTRUCT(BlueprintType)
struct ROADGEN_API FRoadGenNetworkSettings
{
	GENERATED_BODY()
public:
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "RoadGen", meta = (InlineEditConditionToggle))
	bool bOverrideCornerRadius = false;

	/** Radius of the fillet that rounds each junction corner (cm). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "RoadGen", meta = (EditCondition = "bOverrideCornerRadius", ClampMin = "0", Units = "cm"))
	double CornerRadius = 0.0;

	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "RoadGen", meta = (InlineEditConditionToggle))
	bool bOverrideSnapDistance = false;

	/** A road end within this distance of another road joins it (cm). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "RoadGen", meta = (EditCondition = "bOverrideSnapDistance", ClampMin = "0", Units = "cm"))
	double SnapDistance = 0.0;

	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "RoadGen", meta = (InlineEditConditionToggle))
	bool bOverrideClearance = false;

	/** Crossing roads further apart in height than this are bridges/tunnels, not junctions (cm). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "RoadGen", meta = (EditCondition = "bOverrideClearance", ClampMin = "0", Units = "cm"))
	double Clearance = 0.0;

	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "RoadGen", meta = (InlineEditConditionToggle))
	bool bOverrideMergeDistance = false;

	/** Crossings closer together than the widest road plus this become one junction (cm). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "RoadGen", meta = (EditCondition = "bOverrideMergeDistance", ClampMin = "0", Units = "cm"))
	double MergeDistance = 0.0;

	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "RoadGen", meta = (InlineEditConditionToggle))
	bool bOverrideMinBlockArea = false;

	/** Faces smaller than this give no block (square centimetres). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "RoadGen", meta = (EditCondition = "bOverrideMinBlockArea", ClampMin = "0"))
	double MinBlockAreaCm2 = 0.0;

	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "RoadGen", meta = (InlineEditConditionToggle))
	bool bOverrideTolerance = false;

	/** Largest distance between a spline and its flattened polyline (cm). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "RoadGen", meta = (EditCondition = "bOverrideTolerance", ClampMin = "0", Units = "cm"))
	double Tolerance = 0.0;

	/** The default cross-section of every road (a road's own profile overrides it). */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "RoadGen")
	FRoadGenProfileOverride DefaultProfile;

	/** Stop at the first road that cannot be used, instead of leaving it out with a diagnostic. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = "RoadGen")
	bool bStrict = false;
};

/** A closed ring, stored open (the first point is not repeated); x, y in world centimetres. */
USTRUCT(BlueprintType)
struct ROADGEN_API FRoadGenRing
{
	GENERATED_BODY()
public:
	UPROPERTY(VisibleAnywhere, BlueprintReadOnly, Category = "RoadGen")
	TArray<FVector2D> Points;
};

/** A polygon: Rings[0] is the outer boundary, further rings are holes. */
USTRUCT(BlueprintType)
struct ROADGEN_API FRoadGenPolygon
{
	GENERATED_BODY()
public:
	UPROPERTY(VisibleAnywhere, BlueprintReadOnly, Category = "RoadGen")
	TArray<FRoadGenRing> Rings;
};

/** A city block and its lots (the block minus its sidewalk band). */
USTRUCT(BlueprintType)
struct ROADGEN_API FRoadGenBlock
{
	GENERATED_BODY()
public:
	UPROPERTY(VisibleAnywhere, BlueprintReadOnly, Category = "RoadGen")
	FString Id;

	/** Area in square centimetres. */
	UPROPERTY(VisibleAnywhere, BlueprintReadOnly, Category = "RoadGen")
	double AreaCm2 = 0.0;

	UPROPERTY(VisibleAnywhere, BlueprintReadOnly, Category = "RoadGen")
	FRoadGenPolygon Outline;

	UPROPERTY(VisibleAnywhere, BlueprintReadOnly, Category = "RoadGen")
	TArray<FRoadGenPolygon> Lots;
};

/** A warning that is part of a result. */
USTRUCT(BlueprintType)
struct ROADGEN_API FRoadGenDiagnostic
{
	GENERATED_BODY()
public:
	/** The code's name in snake_case, as in the CLI's GeoJSON. */
	UPROPERTY(VisibleAnywhere, BlueprintReadOnly, Category = "RoadGen")
	FString Code;

	/** The input road concerned; empty when there is none. */
	UPROPERTY(VisibleAnywhere, BlueprintReadOnly, Category = "RoadGen")
	FString Road;

	UPROPERTY(VisibleAnywhere, BlueprintReadOnly, Category = "RoadGen")
	FString Message;

	/** Where, x and y in world centimetres. */
	UPROPERTY(VisibleAnywhere, BlueprintReadOnly, Category = "RoadGen")
	FVector2D Position = FVector2D::ZeroVector;
};
