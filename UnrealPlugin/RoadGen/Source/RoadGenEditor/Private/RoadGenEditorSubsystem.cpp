#include "RoadGenEditorSubsystem.h"

#include "Components/DynamicMeshComponent.h"
#include "Editor.h"
#include "EngineUtils.h"
#include "Engine/World.h"
#include "HAL/PlatformProcess.h"
#include "Logging/MessageLog.h"
#include "Misc/ScopedSlowTask.h"
#include "RoadGenEditorModule.h"
#include "RoadGenNetworkActor.h"
#include "RoadGenRoadComponent.h"
#include "RoadGenRunner.h"
#include "ScopedTransaction.h"
#include "Tasks/Task.h"

#define LOCTEXT_NAMESPACE "RoadGenEditorSubsystem"

namespace
{
	/** How long the library may run before the progress dialog appears (seconds). */
	constexpr float ProgressDialogDelaySeconds = 0.5f;
	/** How often the game thread looks at the worker and repaints the dialog (seconds). */
	constexpr float ProgressPollIntervalSeconds = 0.05f;
	/** Label of the generated actor in the Outliner. */
	const TCHAR* const NetworkActorLabel = TEXT("RoadGen Network");
}

void URoadGenEditorSubsystem::Initialize(FSubsystemCollectionBase& Collection)
{
	Super::Initialize(Collection);
	UndoHandle = ARoadGenNetworkActor::OnRestoredByUndo().AddUObject(this, &URoadGenEditorSubsystem::HandleRestoredByUndo);
}

void URoadGenEditorSubsystem::Deinitialize()
{
	ARoadGenNetworkActor::OnRestoredByUndo().Remove(UndoHandle);
	Super::Deinitialize();
}

UWorld* URoadGenEditorSubsystem::GetEditorWorld()
{
	return GEditor != nullptr ? GEditor->GetEditorWorldContext().World() : nullptr;
}

ARoadGenNetworkActor* URoadGenEditorSubsystem::FindNetworkActor(UWorld* World)
{
	// The public entry points check World first and report "no editor world"; this guard keeps
	// TActorIterator from ever getting a null world.
	if (World == nullptr)
	{
		return nullptr;
	}
	for (TActorIterator<ARoadGenNetworkActor> It(World); It; ++It)
	{
		return *It;
	}
	return nullptr;
}

TArray<FRoadGenRoad> URoadGenEditorSubsystem::CollectRoads(UWorld* World)
{
	TArray<FRoadGenRoad> Roads;
	if (World == nullptr)
	{
		return Roads;
	}
	for (TActorIterator<AActor> It(World); It; ++It)
	{
		const URoadGenRoadComponent* Road = It->FindComponentByClass<URoadGenRoadComponent>();
		FRoadGenRoad Input;
		if (Road != nullptr && Road->MakeRoadInput(Input))
		{
			Roads.Add(MoveTemp(Input));
		}
	}
	return Roads;
}

FRoadGenResult URoadGenEditorSubsystem::RunWithProgress(const TArray<FRoadGenRoad>& Roads, const FRoadGenNetworkSettings& Settings, bool& bOutCancelled)
{
	bOutCancelled = false;
	// The worker owns copies of its inputs: after a cancel it finishes on its own and its result
	// is dropped. The library has no progress callback, so the dialog shows activity, not percent.
	UE::Tasks::TTask<FRoadGenResult> Task = UE::Tasks::Launch(TEXT("RoadGen.Generate"),
		[Roads, Settings]() { return RoadGen::Run(Roads, Settings, /*bBuildMeshes=*/true); });

	FScopedSlowTask Progress(1.f, LOCTEXT("Generating", "Generating the road network..."));
	Progress.MakeDialogDelayed(ProgressDialogDelaySeconds, /*bShowCancelButton=*/true);
	while (!Task.IsCompleted())
	{
		Progress.TickProgress();
		if (Progress.ShouldCancel())
		{
			bOutCancelled = true;
			return FRoadGenResult();
		}
		FPlatformProcess::Sleep(ProgressPollIntervalSeconds);
	}
	Progress.EnterProgressFrame(1.f);
	return MoveTemp(Task.GetResult());
}

void URoadGenEditorSubsystem::WriteResult(ARoadGenNetworkActor& Actor, const TArray<FRoadGenRoad>& Roads, FRoadGenResult& Result)
{
	Actor.GeneratedFrom = Roads;
	Actor.Blocks = MoveTemp(Result.Blocks);
	Actor.Diagnostics = Result.Diagnostics;
	Actor.RoadIds = MoveTemp(Result.FeatureIds[RoadGenFeature::Road]);
	Actor.JunctionIds = MoveTemp(Result.FeatureIds[RoadGenFeature::Junction]);
	Actor.BlockIds = MoveTemp(Result.FeatureIds[RoadGenFeature::Block]);
	Actor.SetMeshes(Result.Meshes);
}

void URoadGenEditorSubsystem::ReportDiagnostics(const FRoadGenResult& Result, const FString& Summary)
{
	FMessageLog Log(FRoadGenEditorModule::MessageLogName);
	Log.NewPage(FText::FromString(Summary));
	for (const FRoadGenDiagnostic& D : Result.Diagnostics)
	{
		const FString Where = D.Road.IsEmpty() ? FString() : FString::Printf(TEXT(" (road %s)"), *D.Road);
		Log.Warning(FText::FromString(FString::Printf(TEXT("%s%s at (%.0f, %.0f) cm: %s"), *D.Code, *Where, D.Position.X, D.Position.Y, *D.Message)));
	}
	if (Result.RefusedTriangles > 0)
	{
		Log.Error(FText::FromString(FString::Printf(TEXT("FDynamicMesh3 refused %d triangles (non-manifold or duplicate)"), Result.RefusedTriangles)));
	}
	Log.Info(FText::FromString(Summary));
	Log.Notify(FText::FromString(Summary), EMessageSeverity::Warning);
}

bool URoadGenEditorSubsystem::Compute(const TArray<FRoadGenRoad>& Roads, const FRoadGenNetworkSettings& Settings, FRoadGenResult& OutResult, FString& OutMessage)
{
	bool bCancelled = false;
	OutResult = RunWithProgress(Roads, Settings, bCancelled);
	if (bCancelled)
	{
		OutMessage = TEXT("cancelled; nothing changed");
		return false;
	}
	if (!OutResult.bOk)
	{
		OutMessage = OutResult.Error;
		FMessageLog Log(FRoadGenEditorModule::MessageLogName);
		Log.Error(FText::FromString(OutResult.Error));
		Log.Open(EMessageSeverity::Error);
		return false;
	}
	OutMessage = FString::Printf(TEXT("%d roads: %d junctions, %d road pieces, %d blocks, %d diagnostics"), Roads.Num(),
		OutResult.NumJunctions, OutResult.NumRoadPieces, OutResult.Blocks.Num(), OutResult.Diagnostics.Num());
	ReportDiagnostics(OutResult, OutMessage);
	return true;
}

void URoadGenEditorSubsystem::Apply(ARoadGenNetworkActor& Actor, const TArray<FRoadGenRoad>& Roads, FRoadGenResult& Result)
{
	// UE_API_NOTES B.7: inside the open transaction, Modify() every object before changing it.
	// The mesh contents themselves are not transacted (B.4); GeneratedFrom is, and undo rebuilds
	// the meshes from it (HandleRestoredByUndo).
	Actor.Modify();
	for (int32 Kind = 0; Kind < RoadGenFeature::Count; ++Kind)
	{
		if (UDynamicMeshComponent* Component = Actor.GetMeshComponent(Kind))
		{
			Component->Modify();
		}
	}
	WriteResult(Actor, Roads, Result);
}

bool URoadGenEditorSubsystem::Generate(FString& OutMessage)
{
	UWorld* World = GetEditorWorld();
	if (World == nullptr)
	{
		OutMessage = TEXT("no editor world");
		return false;
	}
	const TArray<FRoadGenRoad> Roads = CollectRoads(World);
	if (Roads.IsEmpty())
	{
		OutMessage = TEXT("no roads: add a RoadGen Road component next to a spline, or place a RoadGen Road actor");
		return false;
	}
	ARoadGenNetworkActor* Actor = FindNetworkActor(World);
	// The library runs before the transaction opens: a failure or a cancel changes nothing.
	FRoadGenResult Result;
	if (!Compute(Roads, Actor != nullptr ? Actor->Settings : FRoadGenNetworkSettings(), Result, OutMessage))
	{
		return false;
	}
	Live.Reset();
	FScopedTransaction Transaction(LOCTEXT("GenerateTransaction", "Generate Road Network"));
	if (Actor == nullptr)
	{
		// Spawned inside the transaction: undo removes it again.
		Actor = World->SpawnActor<ARoadGenNetworkActor>(FActorSpawnParameters());
		if (Actor == nullptr)
		{
			OutMessage = TEXT("could not spawn the RoadGen Network actor");
			return false;
		}
		Actor->SetActorLabel(NetworkActorLabel);
	}
	Apply(*Actor, Roads, Result);
	return true;
}

bool URoadGenEditorSubsystem::Regenerate(FString& OutMessage)
{
	UWorld* World = GetEditorWorld();
	if (World == nullptr)
	{
		OutMessage = TEXT("no editor world");
		return false;
	}
	ARoadGenNetworkActor* Actor = FindNetworkActor(World);
	if (Actor == nullptr || Actor->GeneratedFrom.IsEmpty())
	{
		OutMessage = TEXT("nothing generated yet: run Generate first");
		return false;
	}
	const TArray<FRoadGenRoad> Roads = Actor->GeneratedFrom;
	FRoadGenResult Result;
	if (!Compute(Roads, Actor->Settings, Result, OutMessage))
	{
		return false;
	}
	Live.Reset();
	FScopedTransaction Transaction(LOCTEXT("RegenerateTransaction", "Regenerate Road Network"));
	Apply(*Actor, Roads, Result);
	return true;
}

bool URoadGenEditorSubsystem::Clear(FString& OutMessage)
{
	UWorld* World = GetEditorWorld();
	if (World == nullptr)
	{
		OutMessage = TEXT("no editor world");
		return false;
	}
	ARoadGenNetworkActor* Actor = FindNetworkActor(World);
	if (Actor == nullptr)
	{
		OutMessage = TEXT("no RoadGen Network actor in the level");
		return false;
	}
	Live.Reset();
	FScopedTransaction Transaction(LOCTEXT("ClearTransaction", "Clear Road Network"));
	Actor->Modify();
	Actor->GeneratedFrom.Reset();
	Actor->Blocks.Reset();
	Actor->Diagnostics.Reset();
	Actor->RoadIds.Reset();
	Actor->JunctionIds.Reset();
	Actor->BlockIds.Reset();
	Actor->ClearMeshes();
	OutMessage = TEXT("cleared");
	return true;
}

bool URoadGenEditorSubsystem::FollowRoads(FString& OutMessage)
{
	UWorld* World = GetEditorWorld();
	if (World == nullptr)
	{
		OutMessage = TEXT("no editor world");
		return false;
	}
	ARoadGenNetworkActor* Actor = FindNetworkActor(World);
	if (Actor == nullptr)
	{
		// The actor is made by one undoable Generate; the calls after it follow.
		return Generate(OutMessage);
	}
	const TArray<FRoadGenRoad> Roads = CollectRoads(World);
	FRoadGenResult Result;
	bool KindChanged[RoadGenFeature::Count];
	if (!Live.Sync(Roads, Actor->Settings, Result, KindChanged))
	{
		OutMessage = Result.Error;
		return false;
	}
	if (Result.bUnchanged)
	{
		OutMessage = TEXT("unchanged");
		return true;
	}
	// The 2D results always (a diagnostic may change alone); meshes where a kind changed.
	Actor->GeneratedFrom = Roads;
	Actor->Blocks = MoveTemp(Result.Blocks);
	Actor->Diagnostics = MoveTemp(Result.Diagnostics);
	TArray<FString>* Ids[RoadGenFeature::Count] = {&Actor->RoadIds, &Actor->JunctionIds, &Actor->BlockIds};
	for (int32 Kind = 0; Kind < RoadGenFeature::Count; ++Kind)
	{
		if (KindChanged[Kind])
		{
			*Ids[Kind] = MoveTemp(Result.FeatureIds[Kind]);
		}
	}
	Actor->SetMeshes(Result.Meshes, KindChanged);
	// Saved with the level: MarkPackageDirty, not Modify() in a transaction of our own. A
	// transaction per tick would flood the undo history with one entry per frame of a drag, and
	// Modify() would record the network actor into whatever transaction is open at that moment
	// (the editor's own one of a drag, if it keeps one open). The spline edits stay the undoable
	// steps; what their undo brings back is followed by the next tick (and a restored network
	// actor is rebuilt by HandleRestoredByUndo). The mesh components are subobjects of the actor
	// and live in its package (the level's, or the actor's own external package with one file
	// per actor), so marking the actor's package dirty covers them too.
	Actor->MarkPackageDirty();
	OutMessage = FString::Printf(TEXT("%d roads: %d junctions, %d road pieces, %d blocks, %d diagnostics"), Roads.Num(),
		Result.NumJunctions, Result.NumRoadPieces, Actor->Blocks.Num(), Actor->Diagnostics.Num());
	return true;
}

void URoadGenEditorSubsystem::HandleRestoredByUndo(ARoadGenNetworkActor* Actor)
{
	if (Actor == nullptr)
	{
		return;
	}
	// The restored actor is no longer what FollowRoads last built.
	Live.Reset();
	if (Actor->GeneratedFrom.IsEmpty())
	{
		Actor->ClearMeshes();
		return;
	}
	// Not a new transaction: this restores the meshes that belong to the restored properties.
	FRoadGenResult Result = RoadGen::Run(Actor->GeneratedFrom, Actor->Settings, /*bBuildMeshes=*/true);
	if (!Result.bOk)
	{
		FMessageLog(FRoadGenEditorModule::MessageLogName).Error(FText::FromString(Result.Error));
		Actor->ClearMeshes();
		return;
	}
	Actor->SetMeshes(Result.Meshes);
}

#undef LOCTEXT_NAMESPACE
