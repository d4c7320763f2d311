"""No answer of ``romme serve`` waits for a delayed ACK (issue 28 item 1): the connections
the server accepts carry ``TCP_NODELAY``. Timings stay in the benchmarks; this holds the
cause, so that the 40 ms stall cannot come back."""

from __future__ import annotations

import asyncio
import socket

from romme_score.web.server import bind


def test_the_connections_the_server_accepts_carry_tcp_nodelay() -> None:
    async def accepted_nodelay() -> int:
        seen: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        class Probe(asyncio.Protocol):
            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                sock = transport.get_extra_info("socket")
                seen.set_result(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
                transport.close()

        listening = bind("127.0.0.1", 0)
        port = listening.getsockname()[1]
        server = await asyncio.get_running_loop().create_server(Probe, sock=listening)
        try:
            _reader, writer = await asyncio.open_connection("127.0.0.1", port)
            value = await asyncio.wait_for(seen, 10)
            writer.close()
            return value
        finally:
            server.close()
            await server.wait_closed()

    assert asyncio.run(accepted_nodelay()) != 0


def test_the_listening_socket_is_made_as_tcp_by_name() -> None:
    sock = bind("127.0.0.1", 0)
    try:
        assert sock.proto == socket.IPPROTO_TCP  # asyncio sets TCP_NODELAY only then
    finally:
        sock.close()
