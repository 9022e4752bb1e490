// SYNTAX-CHECK STAND-INS, NOT ENGINE HEADERS.
// Mirrors: Modules/ModuleInterface.h (Core module).
#pragma once

class IModuleInterface
{
public:
	virtual ~IModuleInterface();
	virtual void StartupModule();
	virtual void ShutdownModule();
};
