import SkeletonBoot
import SkeletonLog
import SkeletonSettings

extension Logger: BootLog {}
