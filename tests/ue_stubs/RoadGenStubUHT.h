// SYNTAX-CHECK STAND-INS, NOT ENGINE HEADERS. Mirrors the macros of UObject/ObjectMacros.h that
// UnrealHeaderTool consumes; force-included by scripts/check_plugin_syntax.sh.
#pragma once

#define UCLASS(...)
#define USTRUCT(...)
#define UENUM(...)
#define UPROPERTY(...)
#define UFUNCTION(...)
#define UMETA(...)

// As in ObjectMacros.h: GENERATED_BODY() expands to a macro named after the file (CURRENT_FILE_ID,
// defined by the .generated.h) and the line; the check script writes those macros.
#define RG_STUB_COMBINE_INNER(A, B, C, D) A##B##C##D
#define RG_STUB_COMBINE(A, B, C, D) RG_STUB_COMBINE_INNER(A, B, C, D)
#define GENERATED_BODY(...) RG_STUB_COMBINE(CURRENT_FILE_ID, _, __LINE__, _GENERATED_BODY)

#define WITH_EDITOR 1
#define WITH_EDITORONLY_DATA 1
