// Editor module: the editor subsystem (Generate / Regenerate / Clear / FollowRoads), the Scriptable Tools and the
// one place that calls the Rust library (RoadGenRunner). The only module that depends on RoadGenLib.
// The separate plugin RoadGenPCG depends on this module (RoadGen::Run, exported with ROADGENEDITOR_API);
// never the reverse: nothing here may depend on RoadGenPCG or PCG (scripts/check_plugin_syntax.sh checks).
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
