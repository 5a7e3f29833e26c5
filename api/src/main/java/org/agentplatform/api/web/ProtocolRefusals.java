package org.agentplatform.api.web;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import java.util.Set;
import org.agentplatform.api.error.ApiErrorHandler;
import org.agentplatform.api.error.ErrorResponseWriter;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import reactor.netty.NettyPipeline;
import reactor.netty.http.server.HttpServer;

/**
 * Requests the HTTP decoder itself refuses (a request line or header it cannot parse, headers over the size
 * limit, a URI too long) never reach WebFlux: Reactor Netty answers them with an empty body. This puts the error
 * envelope in those answers, with a request id of their own.
 */
public final class ProtocolRefusals implements NettyServerCustomizer {

    private static final String HANDLER = "agentPlatform.protocolRefusals";

    /** The statuses the decoder answers on its own: a malformed request, a body, URI or headers too large. */
    private static final Set<Integer> REFUSALS = Set.of(400, 413, 414, 431);

    private final ErrorResponseWriter writer;

    public ProtocolRefusals(ErrorResponseWriter writer) {
        this.writer = writer;
    }

    @Override
    public HttpServer apply(HttpServer server) {
        return server.doOnChannelInit((observer, channel, remoteAddress) -> {
            if (channel.pipeline().get(NettyPipeline.HttpCodec) != null && channel.pipeline().get(HANDLER) == null) {
                channel.pipeline().addAfter(NettyPipeline.HttpCodec, HANDLER, new Envelope());
            }
        });
    }

    private final class Envelope extends ChannelOutboundHandlerAdapter {

        @Override
        public void write(ChannelHandlerContext context, Object message, ChannelPromise promise) throws Exception {
            if (message instanceof FullHttpResponse response && response.content().readableBytes() == 0
                    && !response.headers().contains(RequestIds.HEADER) && REFUSALS.contains(response.status().code())) {
                String requestId = RequestIds.generate();
                byte[] body = writer.body(ApiErrorHandler.byStatus(response.status().code()), requestId);
                FullHttpResponse enveloped = response.replace(Unpooled.wrappedBuffer(body));
                enveloped.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
                        .set(HttpHeaderNames.CONTENT_LENGTH, body.length)
                        .set(RequestIds.HEADER, requestId);
                response.release();
                super.write(context, enveloped, promise);
                return;
            }
            super.write(context, message, promise);
        }
    }
}
