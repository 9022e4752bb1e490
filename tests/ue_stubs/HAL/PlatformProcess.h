// SYNTAX-CHECK STAND-INS, NOT ENGINE HEADERS.
// Mirrors: Core HAL/PlatformProcess.h (FGenericPlatformProcess::Sleep(float Seconds)).
#pragma once

struct FPlatformProcess
{
	static void Sleep(float Seconds);
};
