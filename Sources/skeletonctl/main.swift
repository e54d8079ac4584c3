import SkeletonControl

Skeletonctl.main()
