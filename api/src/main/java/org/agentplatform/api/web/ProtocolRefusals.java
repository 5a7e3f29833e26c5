package org.agentplatform.api.web;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.agentplatform.api.error.ErrorEnvelope;
import org.agentplatform.kernel.error.ErrorCode;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import reactor.netty.NettyPipeline;
import reactor.netty.http.server.HttpServer;
import tools.jackson.databind.json.JsonMapper;

/**
 * Requests the HTTP decoder itself refuses (a request line or header it cannot parse, headers over the size
 * limit, a URI too long) never reach WebFlux: Reactor Netty answers them with an empty body. This puts the error
 * envelope in those answers, with a request id of their own.
 */
public final class ProtocolRefusals implements NettyServerCustomizer {

    private static final String HANDLER = "agentPlatform.protocolRefusals";

    private final JsonMapper json;

    public ProtocolRefusals(JsonMapper json) {
        this.json = json;
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
                    && !response.headers().contains(RequestIds.HEADER)) {
                ErrorCode code = switch (response.status().code()) {
                    case 400 -> ErrorCode.MALFORMED_REQUEST;
                    case 413 -> ErrorCode.PAYLOAD_TOO_LARGE;
                    case 414 -> ErrorCode.URI_TOO_LONG;
                    case 431 -> ErrorCode.HEADERS_TOO_LARGE;
                    default -> null;
                };
                if (code != null) {
                    String requestId = RequestIds.generate();
                    byte[] body = json.writeValueAsBytes(ErrorEnvelope.of(new ErrorEnvelope.Body(code.type().wireName(), code.wireName(),
                            message(code), requestId, "", Map.of())));
                    FullHttpResponse enveloped = response.replace(Unpooled.wrappedBuffer(body));
                    enveloped.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
                            .set(HttpHeaderNames.CONTENT_LENGTH, body.length)
                            .set(RequestIds.HEADER, requestId);
                    response.release();
                    super.write(context, enveloped, promise);
                    return;
                }
            }
            super.write(context, message, promise);
        }

        private static String message(ErrorCode code) {
            return switch (code) {
                case URI_TOO_LONG -> "The request URI is longer than this server accepts";
                case HEADERS_TOO_LARGE -> "The request headers are larger than this server accepts";
                case PAYLOAD_TOO_LARGE -> "The request body is larger than this route accepts";
                default -> "The request is not valid HTTP (request line or headers)";
            };
        }
    }
}
