package org.agentplatform.infra.cli;

import java.io.InputStream;
import java.io.PrintStream;

/** Lets tests outside this package run the CLI with their own standard streams. */
public final class UsersCommandAccess {

    private UsersCommandAccess() {
    }

    public static int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
        return UsersCommand.run(args, in, out, err);
    }
}
