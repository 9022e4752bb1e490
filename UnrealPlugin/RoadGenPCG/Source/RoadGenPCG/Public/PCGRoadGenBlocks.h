// PCG node "RoadGen Blocks" (plugin RoadGenPCG): road splines in, the city blocks, their holes
// and their lots out, as closed spline data tagged with their ids, so that a graph can place
// buildings per block or lot and keep them out of the holes.
#pragma once

#include "CoreMinimal.h"
#include "PCGSettings.h"
#include "PCGElement.h"
#include "RoadGenTypes.h"

#include "PCGRoadGenBlocks.generated.h"

namespace PCGRoadGenPins
{
	/** Input: spline data, one per road (e.g. from Get Spline Data on the road actors). */
	inline const FName Roads(TEXT("Roads"));
	/** Output: one closed spline per block outline (outer ring); tags "RoadGenBlock:<id>". */
	inline const FName Blocks(TEXT("Blocks"));
	/**
	 * Output: one closed spline per hole of a block outline (ring 1, 2, ... of the polygon);
	 * tags "RoadGenHole", "RoadGenBlock:<id>" and "RoadGenRing:<ring index>".
	 */
	inline const FName BlockHoles(TEXT("BlockHoles"));
	/** Output: one closed spline per lot (outer ring); tags "RoadGenBlock:<id>" and "RoadGenLot:<index>". */
	inline const FName Lots(TEXT("Lots"));
	/**
	 * Output: one closed spline per hole of a lot; tags "RoadGenHole", "RoadGenBlock:<id>",
	 * "RoadGenLot:<index>" and "RoadGenRing:<ring index>".
	 */
	inline const FName LotHoles(TEXT("LotHoles"));
}

/** Tag names of the node's output data (each datum also has a "<name>:<value>" tag with its id). */
namespace PCGRoadGenTags
{
	/** On every hole ring (BlockHoles and LotHoles), alone, so that a graph can filter by it. */
	inline const TCHAR* const Hole = TEXT("RoadGenHole");
}

UCLASS(BlueprintType, ClassGroup = (Procedural))
class ROADGENPCG_API UPCGRoadGenBlocksSettings : public UPCGSettings
{
	GENERATED_BODY()
public:
#if WITH_EDITOR
	virtual FName GetDefaultNodeName() const override;
	virtual FText GetDefaultNodeTitle() const override;
	virtual EPCGSettingsType GetType() const override;
#endif

	/** Carriageway width of every input road (cm). */
	UPROPERTY(BlueprintReadWrite, EditAnywhere, Category = Settings, meta = (PCG_Overridable, ClampMin = "1", Units = "cm"))
	double RoadWidth = RoadGenDefaultRoadWidthCm;

	/** Height given to the block and lot outlines, which the library returns in 2D (cm). */
	UPROPERTY(BlueprintReadWrite, EditAnywhere, Category = Settings, meta = (PCG_Overridable, Units = "cm"))
	double OutlineHeight = 0.0;

	/** Network settings (unset values: the library's defaults). */
	UPROPERTY(BlueprintReadWrite, EditAnywhere, Category = Settings)
	FRoadGenNetworkSettings Network;

protected:
	virtual TArray<FPCGPinProperties> InputPinProperties() const override;
	virtual TArray<FPCGPinProperties> OutputPinProperties() const override;
	virtual FPCGElementPtr CreateElement() const override;
};

class FPCGRoadGenBlocksElement : public IPCGElement
{
protected:
	virtual bool ExecuteInternal(FPCGContext* Context) const override;
	// The library is thread-safe (one handle per call) and no component is touched.
	virtual bool CanExecuteOnlyOnMainThread(FPCGContext* Context) const override { return false; }
	virtual bool IsCacheable(const UPCGSettings* InSettings) const override { return true; }
};
