package org.agentplatform.infra.support;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** A test-only route that fails unexpectedly, to see what an unexpected fault looks like from outside. */
@RestController
public class UnexpectedFaultRoute {

    public static final String PATH = "/api/v1/test-faults/unexpected";
    public static final String SECRET_DETAIL = "detail-that-must-not-leak";

    @GetMapping(PATH)
    String unexpected() {
        throw new IllegalStateException(SECRET_DETAIL);
    }
}
