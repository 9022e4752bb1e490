// Editor module: the editor subsystem (Generate / Regenerate / Clear / FollowRoads), the Scriptable Tools and the
// one place that calls the Rust library (RoadGenRunner). The only module that depends on RoadGenLib.
using UnrealBuildTool;

public class RoadGenEditor : ModuleRules
{
	public RoadGenEditor(ReadOnlyTargetRules Target) : base(Target)
	{
		PCHUsage = PCHUsageMode.UseExplicitOrSharedPCHs;
		PublicDependencyModuleNames.AddRange(new string[] {
			"Core", "CoreUObject", "Engine", "GeometryCore", "GeometryFramework", "RoadGen"
		});
		PrivateDependencyModuleNames.AddRange(new string[] {
			"RoadGenLib",
			"UnrealEd",
			"EditorSubsystem",
			"MessageLog",
			"Slate",
			"SlateCore",
			"InteractiveToolsFramework",
			"ScriptableToolsFramework",
			"EditorScriptableToolsFramework"
		});
	}
}
