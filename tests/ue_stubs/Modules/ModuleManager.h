// SYNTAX-CHECK STAND-INS, NOT ENGINE HEADERS.
// Mirrors: Modules/ModuleManager.h (Core module): FDefaultModuleImpl, IMPLEMENT_MODULE,
// FModuleManager::LoadModuleChecked / GetModuleChecked / IsModuleLoaded (UE_API_NOTES B.7 uses
// LoadModuleChecked).
#pragma once

#include "CoreMinimal.h"
#include "Modules/ModuleInterface.h"

class FDefaultModuleImpl : public IModuleInterface
{
};

class FModuleManager
{
public:
	static FModuleManager& Get();
	bool IsModuleLoaded(const FName InModuleName) const;
	template <typename TModuleInterface>
	static TModuleInterface& LoadModuleChecked(const FName InModuleName);
	template <typename TModuleInterface>
	static TModuleInterface& GetModuleChecked(const FName ModuleName);
};

#define IMPLEMENT_MODULE(ModuleImplClass, ModuleName) \
	extern "C" IModuleInterface* InitializeModule_##ModuleName() { return new ModuleImplClass(); }
