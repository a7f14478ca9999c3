// A copy of `Tests/CadenceTests/Support/LoopbackHTTPServer.swift`: keep the two the same.
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1, on a port the system picks, for tests of code that sends real requests.
///
/// Each connection carries one request; the server reads it, records it, and does what the request's path is routed
/// to: answers with a status, headers and a body and closes the connection; holds the answer until ``release()``; or
/// closes the connection without answering. Every wait is bounded. Call ``stop()`` when done: it ends the accept loop
/// (which holds the server) and every held connection.
final class LoopbackHTTPServer: @unchecked Sendable {
    // `condition` guards every stored var below; the lets never change.

    /// What the server does with a request.
    enum Route: Sendable {
        /// Answers with this status, these headers (beside `Content-Length` and `Connection: close`) and this body.
        case answer(status: Int, headers: [String: String] = [:], body: String = "")
        /// Answers so once ``release()`` is called, unless the client closes the connection first.
        case held(status: Int, body: String)
        /// Closes the connection without answering.
        case close
    }

    /// A request as the server read it.
    struct Request: Sendable, Equatable {
        var method: String
        var path: String
        /// The header fields, their names lowercased.
        var headers: [String: String]
        var body: String
    }

    /// The port the server listens on.
    let port: UInt16
    private let listener: Int32
    private let routes: [String: Route]
    private let condition = NSCondition()
    private var received: [Request] = []
    private var connections = 0
    private var closedByClient = 0
    private var isReleased = false
    private var isStopped = false

    /// Starts a server that routes each request by its path (without the query); a path not in `routes` gets 404.
    init(routes: [String: Route]) throws {
        self.routes = routes
        let descriptor = socket(AF_INET, Self.streamType, 0)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        listener = descriptor
        port = Self.port(of: descriptor)
        Thread.detachNewThread { [self] in acceptConnections() }
    }

    /// The server's URL for `path` (which starts with `/`).
    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Every request read so far, in order.
    var requests: [Request] { condition.withLock { received } }

    /// How many connections the server has accepted.
    var connectionCount: Int { condition.withLock { connections } }

    /// Lets every held answer go.
    func release() {
        condition.withLock {
            isReleased = true
            condition.broadcast()
        }
    }

    /// Waits, at most `timeout` seconds, until the server has read `count` requests; returns whether it has.
    @discardableResult
    func waitForRequests(_ count: Int, timeout: TimeInterval = 30) -> Bool {
        wait(timeout: timeout) { $0.received.count >= count }
    }

    /// Waits, at most `timeout` seconds, until `count` clients have closed a held connection before its answer.
    @discardableResult
    func waitForClientsClosing(_ count: Int, timeout: TimeInterval = 30) -> Bool {
        wait(timeout: timeout) { $0.closedByClient >= count }
    }

    /// Stops listening and ends every connection; held answers are never sent.
    func stop() {
        let wasStopped = condition.withLock {
            defer {
                isStopped = true
                condition.broadcast()
            }
            return isStopped
        }
        if !wasStopped { close(listener) }
    }

    private func wait(timeout: TimeInterval, until done: (LoopbackHTTPServer) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !done(self), condition.wait(until: deadline) {}
        return done(self)
    }

    private var stopped: Bool { condition.withLock { isStopped } }

    /// The accept loop: polls the listening socket, so that ``stop()`` ends it within a poll's timeout.
    private func acceptConnections() {
        while !stopped {
            var ready = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 20) > 0, !stopped else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            condition.withLock {
                connections += 1
                condition.broadcast()
            }
            Thread.detachNewThread { [self] in serve(client) }
        }
    }

    /// Reads one request from `client`, records it and does what its route says.
    private func serve(_ client: Int32) {
        defer { close(client) }
        guard let request = read(from: client) else { return }
        condition.withLock {
            received.append(request)
            condition.broadcast()
        }
        let path = String(request.path.prefix { $0 != "?" })
        switch routes[path] ?? .answer(status: 404, body: "no route for \(path)") {
        case let .answer(status, headers, body):
            write(status: status, headers: headers, body: body, to: client)
        case let .held(status, body):
            if holdUntilReleased(client) {
                write(status: status, headers: [:], body: body, to: client)
            }
        case .close:
            return
        }
    }

    /// Waits until ``release()`` (true), or until the client closes the connection or the server stops (false).
    private func holdUntilReleased(_ client: Int32) -> Bool {
        let deadline = Date(timeIntervalSinceNow: 60)
        while Date() < deadline {
            let (released, stopped) = condition.withLock { (isReleased, isStopped) }
            if released { return true }
            if stopped { return false }
            var ready = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            if poll(&ready, 1, 10) > 0 {
                var byte: UInt8 = 0
                if recv(client, &byte, 1, 0) <= 0 {
                    condition.withLock {
                        closedByClient += 1
                        condition.broadcast()
                    }
                    return false
                }
            }
        }
        return false
    }

    /// Reads a request's head and its `Content-Length` body; nil if the client closes the connection first.
    private func read(from client: Int32) -> Request? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        var request: Request?
        var bodyLength = 0
        while true {
            if headEnd == nil, let end = bytes.firstRange(of: separator)?.upperBound {
                headEnd = end
                let head = String(decoding: bytes[..<end], as: UTF8.self)
                request = Self.parse(head: head)
                bodyLength = Int(request?.headers["content-length"] ?? "") ?? 0
            }
            if let headEnd, bytes.count - headEnd >= bodyLength {
                request?.body = String(decoding: bytes[headEnd..<(headEnd + bodyLength)], as: UTF8.self)
                return request
            }
            let count = recv(client, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            bytes += buffer[..<count]
        }
    }

    private static func parse(head: String) -> Request? {
        let lines = head.components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ")
        guard requestLine.count == 3 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[line[..<colon].lowercased()] = value
        }
        return Request(method: String(requestLine[0]), path: String(requestLine[1]), headers: headers, body: "")
    }

    private func write(status: Int, headers: [String: String], body: String, to client: Int32) {
        let payload = Array(body.utf8)
        let reason = [200: "OK", 201: "Created", 404: "Not Found", 500: "Internal Server Error"][status] ?? "Status"
        var head = "HTTP/1.1 \(status) \(reason)\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            head += "\(name): \(value)\r\n"
        }
        head += "Content-Length: \(payload.count)\r\nConnection: close\r\n\r\n"
        var remaining = Array(head.utf8) + payload
        while !remaining.isEmpty {
            let sent = send(client, remaining, remaining.count, Self.sendFlags)
            guard sent > 0 else { return }
            remaining.removeFirst(sent)
        }
    }

    #if canImport(Glibc) || canImport(Musl)
    private static let streamType = Int32(SOCK_STREAM.rawValue)
    private static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
    private static let streamType = SOCK_STREAM
    private static let sendFlags: Int32 = 0
    #endif

    /// 127.0.0.1 at `port`.
    static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// The local port a socket is bound to.
    static func port(of socket: Int32) -> UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        return UInt16(bigEndian: address.sin_port)
    }
}

/// A port on 127.0.0.1 that refuses connections: a socket is bound to it, and never listens, until ``close()``.
final class RefusingPort: @unchecked Sendable { // the lets never change
    private let socketDescriptor: Int32
    /// The refusing port.
    let port: UInt16

    init() throws {
        #if canImport(Glibc) || canImport(Musl)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = LoopbackHTTPServer.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard descriptor >= 0, bound == 0 else {
            close(descriptor)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        socketDescriptor = descriptor
        port = LoopbackHTTPServer.port(of: descriptor)
    }

    deinit {
        close(socketDescriptor)
    }

    /// The URL of `path` on the refusing port.
    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }
}
