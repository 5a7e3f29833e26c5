package org.agentplatform.api.web;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.util.Set;
import org.agentplatform.api.error.ApiErrorHandler;
import org.agentplatform.api.error.ErrorResponseWriter;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import reactor.netty.NettyPipeline;
import reactor.netty.http.server.HttpServer;

/**
 * Requests the HTTP decoder itself refuses (a request line or header it cannot parse, headers over the size
 * limit, a URI too long) never reach WebFlux: Reactor Netty answers them with an empty body. This puts the error
 * envelope in those answers, with a request id of their own, framed by its length alone (a decoder refusal of a HEAD
 * came with {@code Transfer-Encoding: chunked} beside it). A request in an HTTP version this server does not speak
 * (the decoder takes any {@code HTTP/x.y}, and answered {@code HTTP/9.9 200 OK}) is answered 505
 * {@code http_version_not_supported} in HTTP/1.1 before it reaches anything else, and the connection is closed.
 */
public final class ProtocolRefusals implements NettyServerCustomizer {

    private static final String HANDLER = "agentPlatform.protocolRefusals";
    private static final String VERSIONS = "agentPlatform.spokenVersions";

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
                channel.pipeline().addAfter(HANDLER, VERSIONS, new SpokenVersions());
            }
        });
    }

    private final class Envelope extends ChannelOutboundHandlerAdapter {

        @Override
        public void write(ChannelHandlerContext context, Object message, ChannelPromise promise) throws Exception {
            if (message instanceof FullHttpResponse response && response.content().readableBytes() == 0
                    && !response.headers().contains(RequestIds.HEADER) && REFUSALS.contains(response.status().code())) {
                super.write(context, enveloped(response), promise);
                return;
            }
            super.write(context, message, promise);
        }
    }

    /** The refusal with the error envelope of its status as its body (and a request id of its own), framed by its length. */
    private FullHttpResponse enveloped(FullHttpResponse refusal) {
        String requestId = RequestIds.generate();
        byte[] body = writer.body(ApiErrorHandler.byStatus(refusal.status().code()), requestId);
        FullHttpResponse enveloped = refusal.replace(Unpooled.wrappedBuffer(body));
        enveloped.headers().remove(HttpHeaderNames.TRANSFER_ENCODING)
                .set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
                .set(HttpHeaderNames.CONTENT_LENGTH, body.length)
                .set(RequestIds.HEADER, requestId);
        refusal.release();
        return enveloped;
    }

    /** Refuses a request in an HTTP version other than 1.1 and 1.0, and drops its body. */
    private final class SpokenVersions extends ChannelInboundHandlerAdapter {

        private boolean discarding;

        @Override
        public void channelRead(ChannelHandlerContext context, Object message) throws Exception {
            if (message instanceof HttpRequest request && !request.decoderResult().isFailure()
                    && !HttpVersion.HTTP_1_1.equals(request.protocolVersion()) && !HttpVersion.HTTP_1_0.equals(request.protocolVersion())) {
                discarding = !(message instanceof LastHttpContent);
                ReferenceCountUtil.release(message);
                FullHttpResponse refusal = enveloped(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                        HttpResponseStatus.HTTP_VERSION_NOT_SUPPORTED));
                refusal.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
                context.writeAndFlush(refusal).addListener(ChannelFutureListener.CLOSE);
                return;
            }
            if (discarding && message instanceof HttpContent) {
                discarding = !(message instanceof LastHttpContent);
                ReferenceCountUtil.release(message);
                return;
            }
            super.channelRead(context, message);
        }
    }
}
