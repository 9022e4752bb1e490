// The RoadGen Rust library as an External module: headers under include/, the static library
// under lib/<Platform>/ (built by scripts/build_plugin_lib.sh on Linux; see UnrealPlugin/README.md
// for Win64 and Mac). Only RoadGenEditor depends on this module.
using System.IO;
using UnrealBuildTool;

public class RoadGenLib : ModuleRules
{
	public RoadGenLib(ReadOnlyTargetRules Target) : base(Target)
	{
		Type = ModuleType.External;
		PublicIncludePaths.Add(Path.Combine(ModuleDirectory, "include"));

		string LibDir = Path.Combine(ModuleDirectory, "lib");
		if (Target.Platform == UnrealTargetPlatform.Win64)
		{
			// cargo build --release --target x86_64-pc-windows-msvc (default dynamic CRT, no
			// +crt-static), then lib/Win64/roadgen.lib.
			PublicAdditionalLibraries.Add(Path.Combine(LibDir, "Win64", "roadgen.lib"));
			// What Rust's std needs from Windows (`cargo rustc --release --crate-type staticlib
			// -- --print native-static-libs` prints the authoritative list for a toolchain).
			PublicSystemLibraries.AddRange(new string[] {
				"kernel32.lib", "advapi32.lib", "ntdll.lib", "userenv.lib", "ws2_32.lib", "bcrypt.lib", "dbghelp.lib"
			});
		}
		else if (Target.Platform == UnrealTargetPlatform.Linux)
		{
			PublicAdditionalLibraries.Add(Path.Combine(LibDir, "Linux", "libroadgen.a"));
			// From `--print native-static-libs` on x86_64-unknown-linux-gnu (gcc_s: see the README).
			PublicSystemLibraries.AddRange(new string[] { "pthread", "dl", "m", "rt", "util" });
		}
		else if (Target.Platform == UnrealTargetPlatform.Mac)
		{
			// A universal archive: lipo -create of aarch64-apple-darwin and x86_64-apple-darwin.
			PublicAdditionalLibraries.Add(Path.Combine(LibDir, "Mac", "libroadgen.a"));
		}
	}
}
