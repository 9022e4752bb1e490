// Runtime module: the road component, the road actor and the generated network actor. It holds
// data and meshes only and does not link the Rust library, so levels with generated roads load
// in cooked games.
using UnrealBuildTool;

public class RoadGen : ModuleRules
{
	public RoadGen(ReadOnlyTargetRules Target) : base(Target)
	{
		PCHUsage = PCHUsageMode.UseExplicitOrSharedPCHs;
		PublicDependencyModuleNames.AddRange(new string[] {
			"Core", "CoreUObject", "Engine", "GeometryCore", "GeometryFramework"
		});
	}
}
