import ArgumentParser
import SkeletonProtocol

extension ShutdownMode: ExpressibleByArgument {}
