package org.agentplatform.infra.support;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;

/** What every platform test context adds to the real application: a movable clock and a faulty route. */
@TestConfiguration(proxyBeanMethods = false)
@Import(UnexpectedFaultRoute.class)
public class PlatformTestConfiguration {

    @Bean
    @Primary
    TestClock testClock() {
        return new TestClock();
    }
}
