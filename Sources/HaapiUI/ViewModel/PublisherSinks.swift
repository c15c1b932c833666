import Foundation

#if canImport(Combine)
    import Combine
#else
    import OpenCombine
    import OpenCombineDispatch
#endif

extension Publisher where Failure == Never {
    /// Receives every value after the first (Curity's `dropFirstAndSink`): an `@Published`
    /// property's publisher gives its current value first, which a UI has drawn already.
    public func dropFirstAndSink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        dropFirst().sink(receiveValue: receiveValue)
    }

    /// Receives every value after the first on the main queue (Curity's `dropFirstAndSinkOnMainThread`).
    public func dropFirstAndSinkOnMainThread(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        dropFirst().receive(on: DispatchQueue.main).sink(receiveValue: receiveValue)
    }
}
