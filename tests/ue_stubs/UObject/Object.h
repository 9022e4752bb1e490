// SYNTAX-CHECK STAND-INS, NOT ENGINE HEADERS.
// Mirrors: UObject/Object.h, UObject/UObjectGlobals.h (NewObject, CreateDefaultSubobject),
// Templates/Casts.h (Cast), UObject/ObjectPtr.h (TObjectPtr), Templates/SubclassOf.h; only the
// members the plugin uses. Modify/PostEditUndo: UE_API_NOTES B.4 and B.7. MarkPackageDirty is
// not in the notes: declared as in UObject/UObjectBaseUtility.h of the public UE 5.4 mirror
// izzy2lost/UnrealEngineUWP ("COREUOBJECT_API bool MarkPackageDirty() const;", a member of
// UObjectBaseUtility, UObject's base; declared on UObject here, which calls the same way).
#pragma once

#include "CoreMinimal.h"

class UClass;
class UWorld;
class UScriptStruct;

class UObject
{
public:
	static UClass* StaticClass();
	FString GetName() const;
	FName GetFName() const;
	virtual UWorld* GetWorld() const;
	virtual bool Modify(bool bAlwaysMarkDirty = true);
	bool MarkPackageDirty() const;
#if WITH_EDITOR
	virtual void PostEditUndo();
#endif
	virtual ~UObject();

protected:
	template <class TReturnType>
	TReturnType* CreateDefaultSubobject(FName SubobjectName, bool bTransient = false);
};

template <class T>
class TObjectPtr
{
public:
	TObjectPtr();
	TObjectPtr(T* Object);
	TObjectPtr& operator=(T* Object);
	T* Get() const;
	operator T*() const;
	T* operator->() const;
};

template <class T>
class TSubclassOf
{
public:
	TSubclassOf(UClass* From);
};

template <class T>
T* NewObject();

template <class To, class From> To* Cast(From* Src);
template <class To, class From> const To* Cast(const From* Src);
template <class To, class From> const To* Cast(const TObjectPtr<const From>& Src);
