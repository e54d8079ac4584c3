import SkeletonBoot

extension Logger: BootLog {}
