// SYNTAX-CHECK STAND-INS, NOT ENGINE HEADERS.
// Mirrors: CoreMinimal.h (Core module) and what it pulls in that the plugin uses:
//   HAL/Platform.h (int32, TCHAR, TEXT), Containers/Array.h, Containers/Set.h,
//   Containers/UnrealString.h (FString), UObject/NameTypes.h (FName), Internationalization/Text.h
//   (FText, LOCTEXT), Containers/StringConv.h (UTF8_TO_TCHAR, FTCHARToUTF8: UE_API_NOTES A.6),
//   Math/Vector.h, Math/Vector2D.h, Math/Rotator.h, Math/Transform.h (double FVector, float
//   FVector2f/FVector3f: UE_API_NOTES C), Templates/SharedPointer.h, Templates/UnrealTemplate.h
//   (MoveTemp), Templates/Function.h (TFunctionRef: UE_API_NOTES B.4), Logging/LogMacros.h,
//   Delegates/DelegateCombinations.h, Math/InterpCurve.h + InterpCurvePoint.h (UE_API_NOTES B.2).
// Declarations only: nothing here has a body that matters.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <type_traits>
#include <utility>

// ---- HAL/Platform.h
using int8 = std::int8_t;
using uint8 = std::uint8_t;
using int16 = std::int16_t;
using uint16 = std::uint16_t;
using int32 = std::int32_t;
using uint32 = std::uint32_t;
using int64 = std::int64_t;
using uint64 = std::uint64_t;
using ANSICHAR = char;
using TCHAR = char16_t;  // as on Linux/Mac; Win64 uses wchar_t (same width)
#define TEXT(x) u##x

// ---- Templates/UnrealTemplate.h
template <typename T>
typename std::remove_reference<T>::type&& MoveTemp(T&& Obj);

// ---- Containers/Array.h (the members the plugin uses)
template <typename T>
class TArray
{
public:
	using SizeType = int32;
	TArray();
	TArray(std::initializer_list<T> InitList);
	TArray(const TArray&);
	TArray(TArray&&);
	TArray& operator=(const TArray&);
	TArray& operator=(TArray&&);
	SizeType Num() const;
	bool IsEmpty() const;
	SizeType Add(const T& Item);
	SizeType Add(T&& Item);
	template <typename... ArgsType> SizeType Emplace(ArgsType&&... Args);
	template <typename... ArgsType> T& Emplace_GetRef(ArgsType&&... Args);
	T& AddDefaulted_GetRef();
	void Reserve(SizeType Number);
	void Reset(SizeType NewSize = 0);
	void Empty(SizeType Slack = 0);
	void SetNum(SizeType NewNum);
	T& operator[](SizeType Index);
	const T& operator[](SizeType Index) const;
	T* begin();
	T* end();
	const T* begin() const;
	const T* end() const;
};

// ---- Containers/Set.h
template <typename T>
class TSet
{
public:
	void Add(const T& InElement);
};

// ---- Containers/UnrealString.h
class FString
{
public:
	FString();
	FString(const TCHAR* Str);
	FString(const FString&);
	FString(FString&&);
	FString& operator=(const FString&);
	FString& operator=(FString&&);
	bool IsEmpty() const;
	// Containers/UnrealString.h: comparison ignores case (ESearchCase::IgnoreCase).
	bool operator==(const FString& Rhs) const;
	bool operator!=(const FString& Rhs) const;
	const TCHAR* operator*() const;
	template <typename... Types>
	static FString Printf(const TCHAR* Fmt, Types... Args);
};

// ---- Containers/StringConv.h (UE_API_NOTES A.6)
class FTCHARToUTF8
{
public:
	explicit FTCHARToUTF8(const TCHAR* Source);
	const ANSICHAR* Get() const;
	int32 Length() const;
};
const TCHAR* RgStubUtf8ToTchar(const ANSICHAR* Str);
#define UTF8_TO_TCHAR(str) RgStubUtf8ToTchar((const ANSICHAR*)(str))

// ---- UObject/NameTypes.h
class FName
{
public:
	FName();
	FName(const TCHAR* Name);
	FName(const ANSICHAR* Name);
};

// ---- Internationalization/Text.h
class FText
{
public:
	FText();
	static FText FromString(const FString& String);
	static const FText& GetEmpty();
};
FText RgStubLocText(const TCHAR* Namespace, const TCHAR* Key, const TCHAR* Source);
// LOCTEXT needs LOCTEXT_NAMESPACE defined (a string literal) as in the engine.
#define RG_STUB_EXPANDED_TEXT(x) TEXT(x)
#define LOCTEXT(InKey, InTextLiteral) RgStubLocText(RG_STUB_EXPANDED_TEXT(LOCTEXT_NAMESPACE), TEXT(InKey), TEXT(InTextLiteral))
#define NSLOCTEXT(InNamespace, InKey, InTextLiteral) RgStubLocText(TEXT(InNamespace), TEXT(InKey), TEXT(InTextLiteral))

// ---- Math (UE_API_NOTES C: FVector is TVector<double>, overlay vectors are float)
namespace UE::Math
{
	template <typename T>
	struct TVector
	{
		T X, Y, Z;
		TVector();
		explicit TVector(T InF);
		TVector(T InX, T InY, T InZ);
		static const TVector ZeroVector;
		static const TVector OneVector;
	};
	template <typename T>
	struct TVector2
	{
		T X, Y;
		TVector2();
		TVector2(T InX, T InY);
		static const TVector2 ZeroVector;
	};
	template <typename T>
	struct TRotator
	{
		T Pitch, Yaw, Roll;
		TRotator();
		explicit TRotator(T InF);
		static const TRotator ZeroRotator;
	};
	template <typename T>
	struct TTransform
	{
		TTransform();
		TVector<T> TransformPosition(const TVector<T>& V) const;
		TVector<T> TransformVector(const TVector<T>& V) const;
		static const TTransform Identity;
	};
}
namespace UE::Math
{
	template <typename T> const TVector<T> TVector<T>::ZeroVector;
	template <typename T> const TVector<T> TVector<T>::OneVector;
	template <typename T> const TVector2<T> TVector2<T>::ZeroVector;
	template <typename T> const TRotator<T> TRotator<T>::ZeroRotator;
	template <typename T> const TTransform<T> TTransform<T>::Identity;
}
using FVector = UE::Math::TVector<double>;
using FVector3d = UE::Math::TVector<double>;
using FVector3f = UE::Math::TVector<float>;
using FVector2D = UE::Math::TVector2<double>;
using FVector2f = UE::Math::TVector2<float>;
using FRotator = UE::Math::TRotator<double>;
using FTransform = UE::Math::TTransform<double>;

// ---- Math/InterpCurvePoint.h, Math/InterpCurve.h (UE_API_NOTES B.2)
enum EInterpCurveMode : int
{
	CIM_Linear,
	CIM_CurveAuto,
	CIM_Constant,
	CIM_CurveUser,
	CIM_CurveBreak,
	CIM_CurveAutoClamped,
	CIM_Unknown
};
template <class T>
class TEnumAsByte
{
public:
	TEnumAsByte();
	TEnumAsByte(T InValue);
	operator T() const;
};
template <class T>
class FInterpCurvePoint
{
public:
	float InVal;
	T OutVal;
	T ArriveTangent;
	T LeaveTangent;
	TEnumAsByte<EInterpCurveMode> InterpMode;
};
template <class T>
class FInterpCurve
{
public:
	TArray<FInterpCurvePoint<T>> Points;
	bool bIsLooped;
	float LoopKeyOffset;
};
using FInterpCurveVector = FInterpCurve<FVector>;

// ---- Templates/SharedPointer.h
enum class ESPMode : uint8 { NotThreadSafe = 0, ThreadSafe = 1 };
template <class ObjectType, ESPMode Mode = ESPMode::ThreadSafe>
class TSharedRef
{
public:
	ObjectType* operator->() const;
};
template <class ObjectType, ESPMode Mode = ESPMode::ThreadSafe>
class TSharedPtr
{
public:
	TSharedPtr();
	template <class Other> TSharedPtr(const TSharedRef<Other, Mode>& InRef);
	ObjectType* operator->() const;
};
template <typename ObjectType, ESPMode Mode = ESPMode::ThreadSafe, typename... ArgTypes>
TSharedRef<ObjectType, Mode> MakeShared(ArgTypes&&... Args);

// ---- Templates/Function.h
template <typename FuncType> class TFunctionRef;
template <typename Ret, typename... ParamTypes>
class TFunctionRef<Ret(ParamTypes...)>
{
public:
	// (template bodies are empty: a declaration-only template used with a lambda would not compile)
	template <typename FunctorType> TFunctionRef(FunctorType&& Functor) {}
};

// ---- Logging/LogMacros.h (the verbosities the plugin uses)
namespace ELogVerbosity { enum Type : uint8 { Fatal = 1, Error, Warning, Display, Log, Verbose, VeryVerbose, All = VeryVerbose }; }
struct FRgStubLogCategory {};
template <typename... Types>
void RgStubLog(const FRgStubLogCategory& Category, ELogVerbosity::Type Verbosity, const TCHAR* Fmt, Types... Args);
#define DEFINE_LOG_CATEGORY_STATIC(CategoryName, DefaultVerbosity, CompileTimeVerbosity) \
	static FRgStubLogCategory CategoryName; static_assert(ELogVerbosity::DefaultVerbosity >= 0 && ELogVerbosity::CompileTimeVerbosity >= 0)
#define UE_LOG(CategoryName, Verbosity, Format, ...) RgStubLog(CategoryName, ELogVerbosity::Verbosity, Format, ##__VA_ARGS__)

// ---- Delegates/DelegateCombinations.h (multicast, one parameter; the members the plugin uses)
class FDelegateHandle
{
public:
	FDelegateHandle();
};
template <typename ParamType>
class TRgStubMulticastDelegate
{
public:
	template <typename UserClass>
	FDelegateHandle AddUObject(UserClass* InUserObject, void (UserClass::*InFunc)(ParamType)) { return FDelegateHandle(); }
	bool Remove(FDelegateHandle Handle);
	void Broadcast(ParamType Param) const;
};
#define DECLARE_MULTICAST_DELEGATE_OneParam(DelegateName, Param1Type) using DelegateName = TRgStubMulticastDelegate<Param1Type>
