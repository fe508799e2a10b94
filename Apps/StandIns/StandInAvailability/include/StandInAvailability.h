// Availability domains for the iOS versions above the UI target's deployment target
// (Apps/Package.swift: iOS 17): Linux ignores `@available(iOS 18, *)`, so each stand-in
// declaration newer than the deployment target also carries `@available(iOS_18_0)`, one of
// these domains (Swift's custom availability, imported from Clang's `availability_domain`).
//
// In `swift build` the domains are always enabled: the screens, written with Apple's
// `if #available(iOS 18, *)`, compile unchanged. `UITypeCheckTests` defines
// STAND_IN_STRICT_AVAILABILITY, which makes them dynamic, and adds the matching domain checks to
// a copy of the screens' `#available` / `@available` (StandIns/README.md): there a use of an
// iOS 18 API outside `if #available(iOS 18, *)` is an error, as Xcode would make it.
#ifndef STAND_IN_AVAILABILITY_H
#define STAND_IN_AVAILABILITY_H

#include <availability_domain.h>

#ifdef STAND_IN_STRICT_AVAILABILITY
static inline int standInAvailabilityUnknownUntilRun(void) { return 0; }
CLANG_DYNAMIC_AVAILABILITY_DOMAIN(iOS_17_4, standInAvailabilityUnknownUntilRun);
CLANG_DYNAMIC_AVAILABILITY_DOMAIN(iOS_18_0, standInAvailabilityUnknownUntilRun);
#else
CLANG_ALWAYS_ENABLED_AVAILABILITY_DOMAIN(iOS_17_4);
CLANG_ALWAYS_ENABLED_AVAILABILITY_DOMAIN(iOS_18_0);
#endif

#endif
