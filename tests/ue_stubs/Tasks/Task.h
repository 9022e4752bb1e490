// SYNTAX-CHECK STAND-INS, NOT ENGINE HEADERS.
// Mirrors: Engine/Source/Runtime/Core/Public/Tasks/Task.h (5.4 mirror): UE::Tasks::Launch and
// TTask<T>::IsCompleted / GetResult. Not in UE_API_NOTES: see UnrealPlugin/README.md.
#pragma once

#include "CoreMinimal.h"

enum class ETaskPriority : int8 { High, Normal, Default = Normal, ForegroundCount, BackgroundHigh = ForegroundCount, BackgroundNormal, BackgroundLow, Count, Inherit };

namespace UE::Tasks
{
	template <typename ResultType>
	class TTask
	{
	public:
		TTask() {}
		bool IsCompleted() const;
		ResultType& GetResult();
	};

	template <typename TaskBodyType>
	TTask<std::invoke_result_t<TaskBodyType>> Launch(const TCHAR* DebugName, TaskBodyType&& TaskBody, ETaskPriority Priority = ETaskPriority::Normal)
	{
		return {};  // (a body, so that a lambda type can be used with -fsyntax-only)
	}
}
