// The PCG node "RoadGen Blocks" (plugin RoadGenPCG): blocks, their holes and lots of a road
// network as PCG spline data. Depends on the PCG plugin and on the RoadGen plugin's modules
// (RoadGen for the data types, RoadGenEditor for the library runner); nothing in the RoadGen
// plugin depends on this module, so a project without PCG enables RoadGen alone.
using UnrealBuildTool;

public class RoadGenPCG : ModuleRules
{
	public RoadGenPCG(ReadOnlyTargetRules Target) : base(Target)
	{
		PCHUsage = PCHUsageMode.UseExplicitOrSharedPCHs;
		// RoadGen is public: PCGRoadGenBlocks.h has a FRoadGenNetworkSettings property.
		PublicDependencyModuleNames.AddRange(new string[] { "Core", "CoreUObject", "Engine", "PCG", "RoadGen" });
		// RoadGenEditor: RoadGen::Run (RoadGenRunner.h, exported with ROADGENEDITOR_API).
		PrivateDependencyModuleNames.AddRange(new string[] { "RoadGenEditor" });
	}
}
