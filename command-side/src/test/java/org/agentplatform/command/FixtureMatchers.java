package org.agentplatform.command;

import java.util.function.Predicate;
import org.agentplatform.kernel.error.CommandRefused;
import org.agentplatform.kernel.error.ErrorCode;
import org.hamcrest.CustomTypeSafeMatcher;
import org.hamcrest.Matcher;

/** Hamcrest matchers for fixture expectations: refusals by contract code, results by predicate. */
public final class FixtureMatchers {

    private FixtureMatchers() {
    }

    public static Matcher<CommandRefused> refused(ErrorCode code) {
        return new CustomTypeSafeMatcher<>("a command refused with " + code.wireName()) {
            @Override
            protected boolean matchesSafely(CommandRefused refusal) {
                return refusal.code() == code;
            }
        };
    }

    public static <T> Matcher<T> matching(String description, Predicate<T> predicate) {
        return new CustomTypeSafeMatcher<>(description) {
            @Override
            protected boolean matchesSafely(T item) {
                return predicate.test(item);
            }
        };
    }
}
