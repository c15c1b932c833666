import Foundation

/// The device context risk-assessment services ask for (BankID's relying-party guidelines,
/// version 6): the operating system, its version, the device model and the app's identifier
/// (the seeds' `applicationBundle`, Curity's `RiskAssessmentConfiguration`).
///
/// Curity has not published how its server receives these fields, so the SDK collects them
/// and keeps them here for the app and for a future transport; it does not send them yet.
public struct RiskAssessmentConfiguration: Sendable, Hashable {
    /// `iOS`, `macOS`, `Linux`, ...
    public var operatingSystemName: String
    /// The system's version, such as `17.4.1`.
    public var operatingSystemVersion: String
    /// The device's model identifier, such as `iPhone15,2` (the machine name where there is none).
    public var deviceModelName: String
    /// The app's bundle identifier.
    public var applicationIdentifier: String

    /// Makes a configuration from known values, with Curity's labels (its interface spells the
    /// last one `applicatonIdentifier`).
    public init(operatingSystemName: String, operatingSystemVersion: String, deviceModelName: String, applicatonIdentifier: String) {
        self.operatingSystemName = operatingSystemName
        self.operatingSystemVersion = operatingSystemVersion
        self.deviceModelName = deviceModelName
        self.applicationIdentifier = applicatonIdentifier
    }

    /// ``init(operatingSystemName:operatingSystemVersion:deviceModelName:applicatonIdentifier:)``
    /// with the last label spelled right.
    public init(operatingSystemName: String, operatingSystemVersion: String, deviceModelName: String, applicationIdentifier: String) {
        self.init(
            operatingSystemName: operatingSystemName, operatingSystemVersion: operatingSystemVersion, deviceModelName: deviceModelName,
            applicatonIdentifier: applicationIdentifier)
    }

    /// Collects the context of this device and of the app in `bundle`.
    public init(bundle: Bundle) {
        let version = ProcessInfo.processInfo.operatingSystemVersion
        var system = utsname()
        uname(&system)
        let machine = withUnsafeBytes(of: &system.machine) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
        #if os(iOS)
            let name = "iOS"
        #elseif os(macOS)
            let name = "macOS"
        #elseif os(Linux)
            let name = "Linux"
        #else
            let name = "unknown"
        #endif
        self.init(
            operatingSystemName: name,
            operatingSystemVersion: "\(version.majorVersion).\(version.minorVersion).\(version.patchVersion)",
            deviceModelName: machine,
            applicatonIdentifier: bundle.bundleIdentifier ?? ProcessInfo.processInfo.processName)
    }
}

/// Whether the client proves the app and device with attestation, and how often a failed
/// attestation is tried again before the DCR fallback (Curity's `AttestationConfiguration`).
public final class AttestationConfiguration: NSObject, Sendable {
    /// Whether the client attests (default `true`); when `false` it uses the DCR fallback or
    /// its client authentication method, as a device that cannot attest does.
    public let useAttestation: Bool
    /// How many more times a failed attestation (the device's or the server's refusal) is tried
    /// before the DCR fallback (default 3).
    public let attestationMaxRetries: Int

    /// Makes a configuration; a negative number of retries counts as none.
    public init(useAttestation: Bool = true, attestationMaxRetries: Int = 3) {
        self.useAttestation = useAttestation
        self.attestationMaxRetries = max(0, attestationMaxRetries)
    }
}
