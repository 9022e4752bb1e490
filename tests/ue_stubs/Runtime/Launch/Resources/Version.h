// SYNTAX-CHECK STAND-INS, NOT ENGINE HEADERS.
// Mirrors: Engine/Source/Runtime/Launch/Resources/Version.h. The check script compiles the plugin
// once per minor version it supports (-DRG_STUB_ENGINE_MINOR_VERSION=4, 5 and 6).
#pragma once

#define ENGINE_MAJOR_VERSION 5
#ifndef RG_STUB_ENGINE_MINOR_VERSION
#define RG_STUB_ENGINE_MINOR_VERSION 4
#endif
#define ENGINE_MINOR_VERSION RG_STUB_ENGINE_MINOR_VERSION
