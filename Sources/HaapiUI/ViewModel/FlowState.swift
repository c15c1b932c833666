import Foundation

/// One observable value of a ``HaapiFlowViewModel`` (the seeds' `@Published` properties):
/// read ``value`` now, or iterate ``values`` for it and every later change.
public final class FlowState<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Value
    private var continuations: [UUID: AsyncStream<Value>.Continuation] = [:]
    private var isFinished = false

    /// A state holding `initial`.
    public init(_ initial: Value) { current = initial }

    /// The current value.
    public var value: Value { lock.withLock { current } }

    /// The current value, then every change, in order (nothing is dropped). The sequence ends
    /// when the view model is closed.
    public var values: AsyncStream<Value> {
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .unbounded)
        let id = UUID()
        lock.withLock {
            continuation.yield(current)
            if isFinished { continuation.finish() } else { continuations[id] = continuation }
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.lock.withLock { self.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    /// Sets the value and tells every observer.
    func send(_ value: Value) {
        lock.withLock {
            current = value
            for continuation in continuations.values { continuation.yield(value) }
        }
    }

    /// Ends every observer's sequence.
    func finish() {
        let ending = lock.withLock { () -> [AsyncStream<Value>.Continuation] in
            isFinished = true
            defer { continuations.removeAll() }
            return Array(continuations.values)
        }
        for continuation in ending { continuation.finish() }
    }
}
