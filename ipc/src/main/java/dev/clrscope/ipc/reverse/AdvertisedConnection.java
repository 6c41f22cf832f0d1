package dev.clrscope.ipc.reverse;

import dev.clrscope.ipc.transport.IpcConnection;

/**
 * A connection a runtime opened to our diagnostic port, after its advertisement was read: ready for
 * one command.
 *
 * @param advertisement who connected
 * @param connection the connection
 */
public record AdvertisedConnection(Advertisement advertisement, IpcConnection connection) {}
