#include "RoadGenRunner.h"

#include <string>
#include <vector>

#include "Components/SplineComponent.h"
#include "DynamicMesh/DynamicMeshAttributeSet.h"
#include "RoadGen.hpp"

using UE::Geometry::FDynamicMesh3;
using UE::Geometry::FIndex3i;

// The codes shared by the engine, the plugin and the C ABI must agree.
static_assert(RG_SLOT_CARRIAGEWAY == RoadGenMaterialSlot::Carriageway && RG_SLOT_CURB == RoadGenMaterialSlot::Curb
		&& RG_SLOT_SIDEWALK == RoadGenMaterialSlot::Sidewalk && RG_SLOT_JUNCTION == RoadGenMaterialSlot::Junction
		&& RG_SLOT_BLOCK == RoadGenMaterialSlot::Block && RG_SLOT_COUNT == RoadGenMaterialSlot::Count,
	"RoadGenMaterialSlot must equal RG_SLOT_*");
static_assert(static_cast<int32>(RgFeatureKind_Road) == RoadGenFeature::Road && static_cast<int32>(RgFeatureKind_Junction) == RoadGenFeature::Junction
		&& static_cast<int32>(RgFeatureKind_Block) == RoadGenFeature::Block,
	"RoadGenFeature must equal RgFeatureKind");
// UE_API_NOTES B.1: ESplinePointType is Linear, Curve, Constant, CurveClamped, CurveCustomTangent.
static_assert(ESplinePointType::Linear == RG_POINT_LINEAR && ESplinePointType::Curve == RG_POINT_CURVE
		&& ESplinePointType::Constant == RG_POINT_CONSTANT && ESplinePointType::CurveClamped == RG_POINT_CURVE_CLAMPED
		&& ESplinePointType::CurveCustomTangent == RG_POINT_CURVE_CUSTOM_TANGENT,
	"ESplinePointType must map 1:1 to RG_POINT_*");

namespace
{
	FString ToFString(RgStr Str)
	{
		const std::string Utf8 = roadgen::ToString(Str);
		return FString(UTF8_TO_TCHAR(Utf8.c_str()));
	}

	std::string ToUtf8(const FString& Str)
	{
		FTCHARToUTF8 Utf8(*Str);
		return std::string(reinterpret_cast<const char*>(Utf8.Get()), static_cast<size_t>(Utf8.Length()));
	}

	RgVec3 ToRg(const FVector& V)
	{
		return RgVec3{V.X, V.Y, V.Z};
	}

	void ApplyProfile(roadgen::Input& Input, size_t Index, const FRoadGenProfileOverride& Profile)
	{
		if (Profile.bOverrideCurbHeight)
		{
			Input.SetCurbHeight(Index, Profile.CurbHeight);
		}
		if (Profile.bOverrideCurbWidth)
		{
			Input.SetCurbWidth(Index, Profile.CurbWidth);
		}
		if (Profile.bOverrideSidewalkLeft)
		{
			Input.SetSidewalkLeft(Index, Profile.SidewalkLeft);
		}
		if (Profile.bOverrideSidewalkRight)
		{
			Input.SetSidewalkRight(Index, Profile.SidewalkRight);
		}
	}

	RgSettings MakeSettings(const FRoadGenNetworkSettings& In, bool bBuildMeshes)
	{
		// Unreal: centimetres, left-handed z up; the library converts both in one place.
		RgSettings S = roadgen::Settings(RG_UNITS_CENTIMETRES, RG_FRAME_LEFT_HANDED_Z_UP);
		if (In.bOverrideCornerRadius) { S.corner_radius = In.CornerRadius; }
		if (In.bOverrideSnapDistance) { S.snap_distance = In.SnapDistance; }
		if (In.bOverrideClearance) { S.clearance = In.Clearance; }
		if (In.bOverrideMergeDistance) { S.merge_distance = In.MergeDistance; }
		if (In.bOverrideMinBlockArea) { S.min_block_area = In.MinBlockAreaCm2; }
		if (In.bOverrideTolerance) { S.tolerance = In.Tolerance; }
		const FRoadGenProfileOverride& P = In.DefaultProfile;
		if (P.bOverrideCurbHeight) { S.profile.curb_height = P.CurbHeight; }
		if (P.bOverrideCurbWidth) { S.profile.curb_width = P.CurbWidth; }
		if (P.bOverrideSidewalkLeft) { S.profile.sidewalk_left = P.SidewalkLeft; }
		if (P.bOverrideSidewalkRight) { S.profile.sidewalk_right = P.SidewalkRight; }
		S.strict = In.bStrict ? 1 : 0;
		S.build_meshes = bBuildMeshes ? 1 : 0;
		return S;
	}

	FRoadGenPolygon ToPolygon(const RgPolygon& Polygon)
	{
		FRoadGenPolygon Out;
		for (const RgRing& Ring : roadgen::Rings(Polygon))
		{
			FRoadGenRing& OutRing = Out.Rings.AddDefaulted_GetRef();
			OutRing.Points.Reserve(static_cast<int32>(Ring.point_count));
			for (const RgVec2& P : roadgen::Points(Ring))
			{
				OutRing.Points.Add(FVector2D(P.x, P.y));
			}
		}
		return Out;
	}

	void PrepareMesh(FDynamicMesh3& Mesh)
	{
		// UE_API_NOTES B.3: triangle groups (one per feature), one UV and one normal layer, and
		// material ids (one per triangle, RG_SLOT_*).
		Mesh.EnableTriangleGroups();
		Mesh.EnableAttributes();
		Mesh.Attributes()->EnableMaterialID();
	}

	/**
	 * Appends one library mesh as it is: positions are Unreal world centimetres, the triangle
	 * winding is already Unreal's (the library mirrors y for RG_FRAME_LEFT_HANDED_Z_UP), UVs are in
	 * metres, normals unit vectors. Returns the number of triangles FDynamicMesh3 refused.
	 */
	int32 AppendMesh(FDynamicMesh3& Mesh, const RgMesh& In, int32 GroupId)
	{
		UE::Geometry::FDynamicMeshAttributeSet* Attributes = Mesh.Attributes();
		UE::Geometry::FDynamicMeshUVOverlay* Uvs = Attributes->PrimaryUV();
		UE::Geometry::FDynamicMeshNormalOverlay* Normals = Attributes->PrimaryNormals();
		UE::Geometry::FDynamicMeshMaterialAttribute* Materials = Attributes->GetMaterialID();

		const roadgen::Span<double> Positions = roadgen::Positions(In);
		const roadgen::Span<float> InNormals = roadgen::Normals(In);
		const roadgen::Span<float> InUvs = roadgen::Uvs(In);
		TArray<int32> VertexIds;
		TArray<int32> UvIds;
		TArray<int32> NormalIds;
		VertexIds.Reserve(static_cast<int32>(In.vertex_count));
		UvIds.Reserve(static_cast<int32>(In.vertex_count));
		NormalIds.Reserve(static_cast<int32>(In.vertex_count));
		for (size_t V = 0; V < In.vertex_count; ++V)
		{
			VertexIds.Add(Mesh.AppendVertex(FVector3d(Positions[3 * V], Positions[3 * V + 1], Positions[3 * V + 2])));
			UvIds.Add(Uvs->AppendElement(FVector2f(InUvs[2 * V], InUvs[2 * V + 1])));
			NormalIds.Add(Normals->AppendElement(FVector3f(InNormals[3 * V], InNormals[3 * V + 1], InNormals[3 * V + 2])));
		}

		const roadgen::Span<uint32_t> Indices = roadgen::Indices(In);
		const roadgen::Span<uint32_t> Slots = roadgen::MaterialSlots(In);
		int32 Refused = 0;
		for (size_t T = 0; T < In.triangle_count; ++T)
		{
			const int32 A = static_cast<int32>(Indices[3 * T]);
			const int32 B = static_cast<int32>(Indices[3 * T + 1]);
			const int32 C = static_cast<int32>(Indices[3 * T + 2]);
			const int32 Tid = Mesh.AppendTriangle(VertexIds[A], VertexIds[B], VertexIds[C], GroupId);
			if (Tid < 0)
			{
				++Refused;
				continue;
			}
			Uvs->SetTriangle(Tid, FIndex3i(UvIds[A], UvIds[B], UvIds[C]));
			Normals->SetTriangle(Tid, FIndex3i(NormalIds[A], NormalIds[B], NormalIds[C]));
			Materials->SetValue(Tid, static_cast<int32>(Slots[T]));
		}
		return Refused;
	}
}

bool RoadGen::IsLibraryCompatible()
{
	return roadgen::CheckAbiVersion();
}

FString RoadGen::JoinWorkerPool()
{
	// 0: one thread per core, this one among them.
	if (rg_workers_start(0) == RgResult_Ok)
	{
		return FString();
	}
	return FString(UTF8_TO_TCHAR(roadgen::LastError(0).c_str()));
}

namespace
{
	FString AbiMismatch()
	{
		return FString::Printf(TEXT("the RoadGen library is version %u, the plugin was built for %u: rebuild the library"),
			rg_abi_version(), static_cast<uint32>(ROADGEN_ABI_VERSION));
	}

	FString Describe(const roadgen::Status& Status)
	{
		return FString::Printf(TEXT("%s: %s"), UTF8_TO_TCHAR(roadgen::ResultName(Status.code)), UTF8_TO_TCHAR(Status.message.c_str()));
	}

	roadgen::Input MakeInput(const TArray<FRoadGenRoad>& Roads)
	{
		roadgen::Input Input;
		for (const FRoadGenRoad& Road : Roads)
		{
			std::vector<RgSplinePoint> Points;
			Points.reserve(static_cast<size_t>(Road.Points.Num()));
			for (const FRoadGenSplinePoint& P : Road.Points)
			{
				RgSplinePoint Point{};
				Point.location = ToRg(P.Location);
				Point.arrive_tangent = ToRg(P.ArriveTangent);
				Point.leave_tangent = ToRg(P.LeaveTangent);
				Point.point_type = P.PointType;
				Points.push_back(Point);
			}
			const size_t Index = Input.AddSpline(ToUtf8(Road.Id), std::move(Points), Road.Width, Road.Layer, Road.bClosedLoop);
			ApplyProfile(Input, Index, Road.Profile);
			if (Road.bOverrideCornerRadius)
			{
				Input.SetCornerRadius(Index, Road.CornerRadius);
			}
		}
		return Input;
	}

	/** Fills Result from View: the 2D results, and the meshes of the kinds in Kinds. */
	void FillResult(const RgNetworkView& View, const bool (&Kinds)[RoadGenFeature::Count], FRoadGenResult& Result)
	{
		Result.NumJunctions = static_cast<int32>(View.junction_count);
		Result.NumRoadPieces = static_cast<int32>(View.piece_count);
		for (const RgDiagnostic& D : roadgen::Diagnostics(View))
		{
			FRoadGenDiagnostic& Out = Result.Diagnostics.AddDefaulted_GetRef();
			Out.Code = ToFString(D.code_name);
			Out.Road = ToFString(D.road);
			Out.Message = ToFString(D.message);
			Out.Position = FVector2D(D.position.x, D.position.y);
		}
		for (const RgBlock& B : roadgen::Blocks(View))
		{
			FRoadGenBlock& Out = Result.Blocks.AddDefaulted_GetRef();
			Out.Id = ToFString(B.id);
			Out.AreaCm2 = B.area;
			Out.Outline = ToPolygon(B.polygon);
			for (const RgPolygon& Lot : roadgen::Lots(B))
			{
				Out.Lots.Add(ToPolygon(Lot));
			}
		}
		for (int32 Kind = 0; Kind < RoadGenFeature::Count; ++Kind)
		{
			if (Kinds[Kind])
			{
				PrepareMesh(Result.Meshes[Kind]);
			}
		}
		for (const RgMesh& M : roadgen::Meshes(View))
		{
			const int32 Kind = static_cast<int32>(M.kind);
			if (Kind < 0 || Kind >= RoadGenFeature::Count || !Kinds[Kind])
			{
				continue;
			}
			// Group 0 is "no feature"; feature i of a kind is group i + 1.
			const int32 GroupId = Result.FeatureIds[Kind].Add(ToFString(M.id)) + 1;
			Result.RefusedTriangles += AppendMesh(Result.Meshes[Kind], M, GroupId);
		}
	}
}

FRoadGenResult RoadGen::Run(const TArray<FRoadGenRoad>& Roads, const FRoadGenNetworkSettings& Settings, bool bBuildMeshes)
{
	FRoadGenResult Result;
	if (!roadgen::CheckAbiVersion())
	{
		Result.Error = AbiMismatch();
		return Result;
	}
	roadgen::Network Network;
	if (!Network.valid())
	{
		Result.Error = FString(UTF8_TO_TCHAR(roadgen::LastError(0).c_str()));
		return Result;
	}
	const roadgen::Status Status = Network.Generate(MakeInput(Roads), MakeSettings(Settings, bBuildMeshes));
	if (!Status.ok())
	{
		Result.Error = Describe(Status);
		return Result;
	}
	const bool Kinds[RoadGenFeature::Count] = {bBuildMeshes, bBuildMeshes, bBuildMeshes};
	FillResult(Network.View(), Kinds, Result);
	Result.bOk = true;
	return Result;
}

FRoadGenLive::FRoadGenLive() : Follower(std::make_unique<roadgen::Follower>())
{
}

FRoadGenLive::~FRoadGenLive() = default;

void FRoadGenLive::Reset()
{
	Follower->Reset();
}

bool FRoadGenLive::Sync(const TArray<FRoadGenRoad>& Roads, const FRoadGenNetworkSettings& Settings, FRoadGenResult& OutResult,
	bool (&OutKindChanged)[RoadGenFeature::Count])
{
	for (bool& Changed : OutKindChanged)
	{
		Changed = false;
	}
	OutResult = FRoadGenResult();
	if (!roadgen::CheckAbiVersion())
	{
		OutResult.Error = AbiMismatch();
		return false;
	}
	roadgen::SyncReport Report;
	const roadgen::Status Status = Follower->Sync(MakeInput(Roads), MakeSettings(Settings, /*bBuildMeshes=*/true), &Report);
	if (!Status.ok())
	{
		OutResult.Error = Describe(Status);
		return false;
	}
	OutResult.bOk = true;
	if (Report.unchanged())
	{
		OutResult.bUnchanged = true;
		return true;
	}
	const roadgen::Network& Network = Follower->network();
	if (Report.generated)
	{
		for (bool& Changed : OutKindChanged)
		{
			Changed = true;
		}
	}
	else
	{
		// A kind changes where a feature's mesh was built again or a feature went away.
		const RgChangesView Changes = Network.Changes();
		for (const roadgen::Span<RgFeatureRef> List : {roadgen::Remeshed(Changes), roadgen::Removed(Changes)})
		{
			for (const RgFeatureRef& Ref : List)
			{
				const int32 Kind = static_cast<int32>(Ref.kind);
				if (Kind >= 0 && Kind < RoadGenFeature::Count)
				{
					OutKindChanged[Kind] = true;
				}
			}
		}
	}
	FillResult(Network.View(), OutKindChanged, OutResult);
	return true;
}
