import HaapiSDK

/// A polling step as a UI shows it: a spinner, who was contacted, the time left.
public struct PollingModel: Sendable, Hashable {
    /// The step as received.
    public let step: PollingStep
    /// pending, done or failed.
    public var status: PollingStatus { step.pollingProperties.status }
    /// Who was contacted (a phone number, a device name).
    public var recipient: String? { step.pollingProperties.recipientOfCommunication }
    /// The longest the server waits, in seconds.
    public var maxWaitTime: Int? { step.pollingProperties.maxWaitTimeSeconds }
    /// How many seconds of it are left.
    public var remainingTime: Int? { step.pollingProperties.maxWaitRemainingTimeSeconds }
    /// The server's interval in milliseconds, when it gives one.
    public var serverInterval: Int? { step.pollingProperties.intervalMilliseconds }
    /// The time between automatic polls: the server's interval when given, else the
    /// configuration's `autoPollingDuration`; `nil` when automatic polling is off.
    public let interval: Duration?
    /// The longest wait between automatic polls that a server's `interval` gives: five minutes.
    /// A wait far longer would be a broken server's (and past the clock's range, it would trap).
    public static let longestServerInterval: Duration = .seconds(300)
    /// Whether the view model polls by itself (otherwise the UI calls ``HaapiFlowViewModel/poll()``).
    public var isAutomatic: Bool { interval != nil }
    /// The action that abandons the wait, if offered.
    public let cancel: FormModel?
    /// What the client does while it waits, when the step offers it (BankID: start the app on
    /// this device, or show the QR code for another).
    public let clientOperation: ClientOperationModel?

    /// A model of `step`, with the configured automatic polling duration (seconds; 0 = off).
    public init(_ step: PollingStep, autoPollingDuration: Double, clientOperation: ClientOperationModel? = nil) {
        self.step = step
        self.clientOperation = clientOperation
        cancel = step.cancelAction.flatMap { FormModel($0) }
        interval = Self.interval(serverMilliseconds: step.pollingProperties.intervalMilliseconds, autoPollingDuration: autoPollingDuration)
    }

    /// The time between automatic polls: `nil` when `autoPollingDuration` is 0 or less,
    /// otherwise the server's interval when it gives a positive one (at most
    /// ``longestServerInterval``), else `autoPollingDuration`.
    public static func interval(serverMilliseconds: Int?, autoPollingDuration: Double) -> Duration? {
        guard autoPollingDuration > 0 else { return nil }
        if let serverMilliseconds, serverMilliseconds > 0 { return min(.milliseconds(serverMilliseconds), longestServerInterval) }
        return .milliseconds(Int64((autoPollingDuration * 1000).rounded()))
    }
}
