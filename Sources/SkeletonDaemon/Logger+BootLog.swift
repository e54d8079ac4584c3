import SkeletonSettings
import SkeletonBoot

extension Logger: BootLog {}
