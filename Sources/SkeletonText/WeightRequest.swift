/// A font file and a weight asked of it: the key of `TextEngine`'s cache of `FontChoice`s.
struct WeightRequest: Hashable {
    var path: String
    var weight: Int
}
