// SYNTAX-CHECK STAND-INS, NOT ENGINE CODE. Mirrors the UnrealBuildTool types the plugin's
// Build.cs files use (ModuleRules, ReadOnlyTargetRules, UnrealTargetPlatform, ModuleType,
// PCHUsageMode; UE_API_NOTES A.2 and B.10), so that mcs can compile them.
using System.Collections.Generic;

namespace UnrealBuildTool
{
	public enum ModuleType { CPlusPlus, External }

	public class UnrealTargetPlatform
	{
		public static readonly UnrealTargetPlatform Win64 = new UnrealTargetPlatform();
		public static readonly UnrealTargetPlatform Linux = new UnrealTargetPlatform();
		public static readonly UnrealTargetPlatform Mac = new UnrealTargetPlatform();
	}

	public class ReadOnlyTargetRules
	{
		public UnrealTargetPlatform Platform { get { return UnrealTargetPlatform.Linux; } }
	}

	public class ModuleRules
	{
		public enum PCHUsageMode { Default, NoPCHs, NoSharedPCHs, UseSharedPCHs, UseExplicitOrSharedPCHs }

		public ModuleRules(ReadOnlyTargetRules Target) { }

		public ModuleType Type;
		public PCHUsageMode PCHUsage;
		public string ModuleDirectory { get { return ""; } }
		public List<string> PublicIncludePaths = new List<string>();
		public List<string> PublicAdditionalLibraries = new List<string>();
		public List<string> PublicSystemLibraries = new List<string>();
		public List<string> PublicDependencyModuleNames = new List<string>();
		public List<string> PrivateDependencyModuleNames = new List<string>();
	}
}
