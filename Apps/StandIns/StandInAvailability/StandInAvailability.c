// The domains are declarations only (include/StandInAvailability.h); SwiftPM wants one source file.
