// Optional PCG node: blocks and lots of a road network as PCG spline data. Needs the PCG plugin;
// with PCG disabled, remove the RoadGenPCG entry from RoadGen.uplugin.
using UnrealBuildTool;

public class RoadGenPCG : ModuleRules
{
	public RoadGenPCG(ReadOnlyTargetRules Target) : base(Target)
	{
		PCHUsage = PCHUsageMode.UseExplicitOrSharedPCHs;
		PublicDependencyModuleNames.AddRange(new string[] { "Core", "CoreUObject", "Engine", "PCG" });
		PrivateDependencyModuleNames.AddRange(new string[] { "RoadGen", "RoadGenEditor" });
	}
}
