package org.agentplatform.infra.platform;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;
import org.agentplatform.kernel.identity.OwnerId;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Every setting of the service, under {@code agent-platform.*} (environment: {@code AGENT_PLATFORM_*}).
 * The defaults run a complete single node with nothing installed: see README and docs/decisions.md.
 *
 * @param dataDir          where the embedded database, the first API key and other local state live
 * @param database         an external PostgreSQL; when {@code url} is empty the embedded one is used
 * @param embeddedPostgres how the embedded PostgreSQL runs
 * @param jwt              an external identity provider whose RS256 JWTs are accepted besides the built-in ones
 * @param identity         the built-in identity: token issuer and default quotas
 * @param operations       runtime operations: deadlines and waits
 * @param models           the OpenAI-compatible model endpoint, if any (besides the built-in echo model)
 * @param secrets          the vault key for secrets kept outside the event store
 * @param tasks            tasks: chunk retention, turn workers and recovery, the bounds on an owner's unfinished tasks
 * @param conversations    conversations: the bound on the messages waiting in one
 * @param files            the object store behind presigned file URLs
 * @param webhooks         task webhooks: retry schedule, attempt timeout, SSRF allow-list
 * @param control          computer and mobile control
 * @param audit            the audit trail's signed checkpoints
 * @param terminals        terminal sessions (shells on instances)
 * @param events           how the event processors follow the event store
 * @param cors             the browser origins allowed to call the API ({@code AGENT_PLATFORM_CORS_ALLOWED_ORIGINS}, comma-separated)
 * @param backgroundNiceness how much lower (a Linux nice value, 0-19; 0: not lower) the background threads' priority is than
 *                         the request threads': the event processors, the local runtime's turns, the sweepers
 */
@ConfigurationProperties("agent-platform")
public record PlatformProperties(
        @DefaultValue("./data") Path dataDir,
        @DefaultValue Database database,
        @DefaultValue EmbeddedPostgresSettings embeddedPostgres,
        @DefaultValue ExternalJwt jwt,
        @DefaultValue Identity identity,
        @DefaultValue Operations operations,
        @DefaultValue Models models,
        @DefaultValue Secrets secrets,
        @DefaultValue Tasks tasks,
        @DefaultValue Conversations conversations,
        @DefaultValue Files files,
        @DefaultValue Webhooks webhooks,
        @DefaultValue Control control,
        @DefaultValue Audit audit,
        @DefaultValue Terminals terminals,
        @DefaultValue Events events,
        @DefaultValue Cors cors,
        @DefaultValue("19") int backgroundNiceness) {

    /**
     * {@code AGENT_PLATFORM_DATABASE_URL}, {@code _USER}, {@code _PASSWORD}; and the connection pools (JDBC: the
     * event store and processors; the local runtime's; R2DBC: the API's reads). Their sum, plus a few, must fit the
     * server's {@code max_connections} on every node.
     */
    public record Database(String url, String user, String password, @DefaultValue("40") int jdbcPoolSize,
            @DefaultValue("10") int runtimePoolSize, @DefaultValue("20") int r2dbcPoolSize) {

        public boolean isConfigured() {
            return url != null && !url.isBlank();
        }

        @Override
        public String toString() {
            return "Database[url=" + url + ", user=" + user + ", jdbcPoolSize=" + jdbcPoolSize + ", runtimePoolSize=" + runtimePoolSize
                    + ", r2dbcPoolSize=" + r2dbcPoolSize + "]";
        }
    }

    /**
     * @param binariesDir  where the PostgreSQL binaries are unpacked; empty: the system temp directory
     * @param port         0 picks a free port on 127.0.0.1
     * @param durable      fsync and synchronous commit (only throwaway test clusters turn this off)
     * @param settings     further server settings, each passed as {@code -c name=value} ({@code shared_buffers: 1GB},
     *                     {@code shared_preload_libraries: pg_stat_statements}); names and values are PostgreSQL's
     */
    public record EmbeddedPostgresSettings(
            Path binariesDir,
            @DefaultValue("0") int port,
            @DefaultValue("true") boolean durable,
            @DefaultValue("100") int maxConnections,
            @DefaultValue("60s") Duration startTimeout,
            @DefaultValue Map<String, String> settings) {

        private static final Pattern SETTING_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_.]*");
        private static final Pattern SETTING_VALUE = Pattern.compile("[A-Za-z0-9_.,:/+-]+");

        public EmbeddedPostgresSettings {
            settings = Map.copyOf(settings);
            settings.forEach((name, value) -> {
                if (!SETTING_NAME.matcher(name).matches() || !SETTING_VALUE.matcher(value).matches()) {
                    throw new IllegalArgumentException("agent-platform.embedded-postgres.settings: '" + name + "=" + value
                            + "' is not a PostgreSQL setting (names of letters, digits, '_' and '.'; values without spaces or quotes)");
                }
            });
        }

        public Path binariesRoot() {
            return binariesDir != null ? binariesDir : Path.of(System.getProperty("java.io.tmpdir"), "agent-platform-postgres");
        }
    }

    /** {@code AGENT_PLATFORM_JWT_JWKS_URI}, {@code _ISSUER}, {@code _AUDIENCE}: an external issuer, off when the URI is empty. */
    public record ExternalJwt(String jwksUri, String issuer, String audience, @DefaultValue("5s") Duration jwksTimeout) {

        public boolean isConfigured() {
            return jwksUri != null && !jwksUri.isBlank();
        }
    }

    /**
     * @param issuer                          {@code iss} of the tokens the login endpoint issues
     * @param audience                        their {@code aud}
     * @param tokenTtl                        their lifetime
     * @param defaultKeyRateLimitPerMinute    quota of a key created without {@code rate_limit_per_minute}
     * @param jwtRateLimitPerMinute           per-endpoint quota of a JWT session
     * @param credentialCacheTtl              how long a credential found in the store is trusted without asking again
     *                                        (a key revoked through another node stops working within it)
     */
    public record Identity(
            @DefaultValue("agent-platform") String issuer,
            @DefaultValue("agent-platform-api") String audience,
            @DefaultValue("1h") Duration tokenTtl,
            @DefaultValue("600") int defaultKeyRateLimitPerMinute,
            @DefaultValue("600") int jwtRateLimitPerMinute,
            @DefaultValue("10s") Duration credentialCacheTtl) {
    }

    /**
     * @param answerTimeout    a dispatched operation whose runtime stays silent this long is {@code outcome_unknown}
     * @param defaultDeadline  a queued operation not started within this expires (callers may pass {@code deadline_ms})
     * @param maxDeadline      the longest {@code deadline_ms} accepted
     * @param syncWait         how long the agent endpoints wait for their operation before answering 504
     * @param dedupeWindow     a repeated agent write within it, while the first still applies, waits for the first
     * @param sweepInterval    how often queued and projection-pending operations are swept (crash recovery) and cron runs start
     */
    public record Operations(
            @DefaultValue("60s") Duration answerTimeout,
            @DefaultValue("10m") Duration defaultDeadline,
            @DefaultValue("24h") Duration maxDeadline,
            @DefaultValue("25s") Duration syncWait,
            @DefaultValue("10m") Duration dedupeWindow,
            @DefaultValue("2s") Duration sweepInterval) {
    }

    /**
     * An OpenAI-compatible chat-completions endpoint ({@code AGENT_PLATFORM_MODELS_OPENAI_BASE_URL}, {@code _API_KEY},
     * {@code _MODELS}): its models join the catalog beside {@code echo}.
     */
    public record Models(@DefaultValue OpenAi openai) {

        public record OpenAi(String baseUrl, String apiKey, @DefaultValue List<String> models, @DefaultValue("60s") Duration timeout) {

            public boolean isConfigured() {
                return baseUrl != null && !baseUrl.isBlank();
            }

            @Override
            public String toString() {
                return "OpenAi[baseUrl=" + baseUrl + ", models=" + models + "]";
            }
        }
    }

    /**
     * {@code AGENT_PLATFORM_SECRETS_KEY}: base64 of 32 bytes; without it a single node keeps one in {@code <data-dir>/secret.key}.
     * {@code sealContent} ({@code AGENT_PLATFORM_SECRETS_SEAL_CONTENT}, default true): owners' messages, replies, chunks and
     * file names are sealed with their data keys; false stores new ones in clear (texts sealed before still open), which
     * erasure then cannot reach: it is there to measure what sealing costs, not to run with.
     */
    public record Secrets(String key, @DefaultValue("true") boolean sealContent) {

        @Override
        public String toString() {
            return "Secrets[key=" + (key == null ? "from data dir" : "***") + ", sealContent=" + sealContent + "]";
        }
    }

    /**
     * @param chunkRetention  streaming chunks older than this are pruned (a stream resumed before them says backfill_truncated)
     * @param turnTakeover    a running turn whose node has been silent this long is run again by another node (or after a restart)
     * @param turnWorkers     threads the local runtime works on turns with, 0 for one per core: a turn holds one only while it
     *                        computes or writes (a model's stream or a step's delay holds none), and more than the cores only
     *                        take the CPU from the API's requests in a burst (turns wait for a worker instead, in memory)
     * @param maxQueuedTurns  turns a node claims ahead of its turn workers (in memory, in the fair order); the rest wait in
     *                        PostgreSQL, where any node claims them in the fair order
     * @param ownerWeights    an owner's weight in that order (by owner id; 1 when not named): while several owners have turns
     *                        waiting, each gets turns in proportion to its weight
     * @param maxUnfinishedPerOwner        queued or running tasks (tasks API and cron) an owner may have; past it a create
     *                                     answers 429 {@code rate_limited} with {@code Retry-After}
     * @param maxUnfinishedInvokesPerOwner queued or running synchronous invokes an owner may have, apart from its tasks
     * @param saturationLagEvents          how far behind the event store's head (in events) the task dispatcher or the task
     *                                     projection on this node may fall before the node counts as saturated (until both
     *                                     are back within a quarter of it): the node then lowers its ceiling on task creates,
     *                                     which owners share when several ask for more, an owner past its weighted share
     *                                     answered 429 {@code rate_limited}; 0 never counts the node saturated
     * @param sharedCpuPressure            while several owners create tasks on the node, the machine's CPU pressure (the
     *                                     share of time its runnable work waits for a core: Linux's {@code /proc/pressure/cpu},
     *                                     else the CPU load) at which the node also counts as saturated, so that a flood
     *                                     beside a neighbour is held below the edge where every request waits; 0 never
     */
    public record Tasks(
            @DefaultValue("24h") Duration chunkRetention,
            @DefaultValue("20s") Duration turnTakeover,
            @DefaultValue("0") int turnWorkers,
            @DefaultValue("8") int maxQueuedTurns,
            @DefaultValue Map<UUID, Integer> ownerWeights,
            @DefaultValue("10000") int maxUnfinishedPerOwner,
            @DefaultValue("1000") int maxUnfinishedInvokesPerOwner,
            @DefaultValue("50") int saturationLagEvents,
            @DefaultValue("0.7") double sharedCpuPressure) {

        public Tasks {
            if (turnWorkers < 0) {
                throw new IllegalArgumentException("agent-platform.tasks.turn-workers must be 0 (one per core) or more");
            }
            if (maxQueuedTurns < 1) {
                throw new IllegalArgumentException("agent-platform.tasks.max-queued-turns must be 1 or more");
            }
            ownerWeights = Map.copyOf(ownerWeights);
            ownerWeights.forEach((owner, weight) -> {
                if (weight < 1 || weight > 1000) {
                    throw new IllegalArgumentException("agent-platform.tasks.owner-weights." + owner + " must be 1 to 1000, not " + weight);
                }
            });
            if (maxUnfinishedPerOwner < 1 || maxUnfinishedInvokesPerOwner < 1) {
                throw new IllegalArgumentException("agent-platform.tasks.max-unfinished-per-owner and"
                        + " max-unfinished-invokes-per-owner must be 1 or more");
            }
            if (saturationLagEvents < 0) {
                throw new IllegalArgumentException("agent-platform.tasks.saturation-lag-events must be 0 (never saturated) or more");
            }
            if (!(sharedCpuPressure >= 0 && sharedCpuPressure < 1)) {
                throw new IllegalArgumentException("agent-platform.tasks.shared-cpu-pressure must be 0 (never) or a fraction below 1, not "
                        + sharedCpuPressure);
            }
        }

        /** The owner's weight in the fair order of waiting turns. */
        public int ownerWeight(OwnerId owner) {
            return ownerWeights.getOrDefault(owner.value(), 1);
        }

        /** How many threads the local runtime works on turns with. */
        public int turnThreads() {
            return turnWorkers == 0 ? Runtime.getRuntime().availableProcessors() : turnWorkers;
        }
    }

    /**
     * @param maxWaitingMessages messages that may wait behind a conversation's running turn; past it a message answers 429
     *                           {@code rate_limited}
     */
    public record Conversations(@DefaultValue("100") int maxWaitingMessages) {

        public Conversations {
            if (maxWaitingMessages < 1) {
                throw new IllegalArgumentException("agent-platform.conversations.max-waiting-messages must be 1 or more");
            }
        }
    }

    /**
     * @param store          {@code local} (files under the data directory, served by this service) or {@code s3}
     * @param maxBytes       the largest upload accepted
     * @param uploadTtl      how long an upload URL is valid
     * @param downloadTtl    how long a download URL is valid
     * @param s3             the S3-compatible store, when {@code store} is {@code s3}
     */
    public record Files(
            @DefaultValue("local") String store,
            @DefaultValue("104857600") long maxBytes,
            @DefaultValue("15m") Duration uploadTtl,
            @DefaultValue("15m") Duration downloadTtl,
            @DefaultValue S3 s3) {

        public boolean isS3() {
            return "s3".equalsIgnoreCase(store);
        }
    }

    /**
     * An S3-compatible object store ({@code AGENT_PLATFORM_FILES_S3_*}); {@code endpoint} empty means AWS itself.
     *
     * @param pathStyle  {@code http://host/bucket/key} addressing (most S3-compatible servers), else virtual-hosted
     */
    public record S3(String endpoint, @DefaultValue("us-east-1") String region, String bucket, String accessKey, String secretKey,
            @DefaultValue("true") boolean pathStyle) {

        @Override
        public String toString() {
            return "S3[endpoint=" + endpoint + ", region=" + region + ", bucket=" + bucket + ", pathStyle=" + pathStyle + "]";
        }
    }

    /**
     * @param retryDelays      after failed attempts 1 to 5 (the contract's schedule; shortening it is for tests only)
     * @param attemptTimeout   how long one attempt may take
     * @param allowedNetworks  internal networks callbacks may still reach (CIDR, e.g. {@code 10.0.0.0/8}); none by default
     */
    public record Webhooks(
            @DefaultValue({"1m", "5m", "30m", "2h", "12h"}) List<Duration> retryDelays,
            @DefaultValue("10s") Duration attemptTimeout,
            @DefaultValue List<String> allowedNetworks) {
    }

    /**
     * Computer and mobile control: {@code realX} gives running linux instances a real X display when {@code Xvfb} and
     * {@code xdotool} are installed (else a virtual device); {@code budgetTimeout} bounds the budget's statement (past
     * it the request answers 503 {@code control_rate_limit_unavailable}).
     */
    public record Control(@DefaultValue("true") boolean realX, @DefaultValue("2s") Duration budgetTimeout) {
    }

    /**
     * @param allowedOrigins browser origins ({@code https://app.example.com}, scheme, host and port exactly) whose pages
     *                       may call the API; none by default
     */
    public record Cors(@DefaultValue List<String> allowedOrigins) {
    }

    /** @param checkpointInterval how often the head of the audit chain is signed (when it moved) */
    public record Audit(@DefaultValue("5m") Duration checkpointInterval) {
    }

    /**
     * Terminal sessions. The local provider's shells run on this host as the service's user: turn them off with
     * {@code enabled=false} where that is not wanted.
     *
     * @param enabled     whether terminals may be opened
     * @param ticketTtl   how long a terminal ticket may wait to be redeemed
     * @param idleTimeout a terminal with no connection attached for this long ends
     * @param scrollback  how many bytes of a terminal's recent output a (re)attaching connection sees first
     * @param shell       the shell to run; empty for the service user's login shell
     */
    public record Terminals(
            @DefaultValue("true") boolean enabled,
            @DefaultValue("60s") Duration ticketTtl,
            @DefaultValue("10m") Duration idleTimeout,
            @DefaultValue("65536") int scrollback,
            @DefaultValue("") String shell) {
    }

    /**
     * @param pollInterval how often a node reads the event store when nothing woke it: its own commits and the other nodes'
     *                     (announced by a notification) wake it at once; this catches a notification lost in a reconnect
     * @param readPacing   the shortest time between two reads of the event store while the node is busy (its last six
     *                     commits within two such times): their events go to each processor as one batch; zero reads at
     *                     every commit
     */
    public record Events(@DefaultValue("2s") Duration pollInterval, @DefaultValue("10ms") Duration readPacing) {

        public Events {
            if (readPacing.isNegative() || readPacing.compareTo(Duration.ofSeconds(1)) > 0) {
                throw new IllegalArgumentException("agent-platform.events.read-pacing must be between 0 and 1s, not " + readPacing);
            }
        }
    }
}
