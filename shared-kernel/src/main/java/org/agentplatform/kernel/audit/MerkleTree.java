package org.agentplatform.kernel.audit;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * RFC 9162's Merkle tree over the audit log (section 2.1): SHA-256, a leaf's hash {@code H(0x00 || leaf)}, a node's
 * {@code H(0x01 || left || right)}, the tree of {@code n} leaves split at the largest power of two below {@code n}.
 * Roots, inclusion proofs and consistency proofs are computed from the hashes of perfect subtrees ({@link Node}), the
 * only ones a log stores; each needs O(log n) of them. The verifiers are RFC 9162's algorithms (2.1.3.2, 2.1.4.2) and
 * need nothing but the proof.
 */
public final class MerkleTree {

    /** The hash's length in bytes. */
    public static final int HASH_BYTES = 32;

    private MerkleTree() {
    }

    /**
     * A perfect subtree of {@code 2^level} leaves, the {@code index}-th of its level: it covers the leaves
     * {@code [index * 2^level, (index + 1) * 2^level)}; at level 0 it is a leaf.
     */
    public record Node(int level, long index) {

        public long firstLeaf() {
            return index << level;
        }
    }

    /** {@code H(0x00 || leaf)}. */
    public static byte[] leafHash(byte[] leaf) {
        MessageDigest sha256 = sha256();
        sha256.update((byte) 0);
        return sha256.digest(leaf);
    }

    /** {@code H(0x01 || left || right)}. */
    public static byte[] nodeHash(byte[] left, byte[] right) {
        MessageDigest sha256 = sha256();
        sha256.update((byte) 1);
        sha256.update(left);
        return sha256.digest(right);
    }

    /** The perfect subtrees whose hashes make the root of a tree of {@code size} leaves, left to right (one per set bit). */
    public static List<Node> rightEdge(long size) {
        List<Node> edge = new ArrayList<>();
        long first = 0;
        for (int level = 63 - Long.numberOfLeadingZeros(Math.max(size, 1)); level >= 0; level--) {
            if ((size & (1L << level)) != 0) {
                edge.add(new Node(level, first >> level));
                first += 1L << level;
            }
        }
        return edge;
    }

    /** The root of the first {@code size} leaves ({@code MTH(D[0:size])}); the empty tree's is {@code H()}. */
    public static byte[] root(long size, Function<Node, byte[]> nodes) {
        return size == 0 ? sha256().digest() : subtree(0, size, nodes);
    }

    /** {@code PATH(leaf, D[0:size])}: the audit path of leaf {@code leaf} in the tree of {@code size} leaves, bottom up. */
    public static List<byte[]> inclusionProof(long leaf, long size, Function<Node, byte[]> nodes) {
        if (leaf < 0 || leaf >= size) {
            throw new IllegalArgumentException("Leaf " + leaf + " is not in a tree of " + size);
        }
        List<byte[]> path = new ArrayList<>();
        path(leaf, 0, size, nodes, path);
        return path;
    }

    /** {@code PROOF(first, D[0:second])}: what proves that the tree of {@code first} leaves is a prefix of that of {@code second}. */
    public static List<byte[]> consistencyProof(long first, long second, Function<Node, byte[]> nodes) {
        if (first <= 0 || first > second) {
            throw new IllegalArgumentException("No consistency proof from " + first + " to " + second);
        }
        List<byte[]> proof = new ArrayList<>();
        if (first < second) {
            subproof(first, 0, second, true, nodes, proof);
        }
        return proof;
    }

    /**
     * The perfect subtrees {@code compute} reads, found by running it once over placeholder hashes: a log fetches them
     * in one query, then runs {@code compute} again over what it fetched.
     */
    public static Set<Node> nodesRead(Function<Function<Node, byte[]>, ?> compute) {
        Set<Node> read = new LinkedHashSet<>();
        byte[] placeholder = new byte[HASH_BYTES];
        compute.apply(node -> {
            read.add(node);
            return placeholder;
        });
        return read;
    }

    /** The nodes of {@code fetched} as a lookup that fails loudly on one it lacks (a log whose tree is incomplete). */
    public static Function<Node, byte[]> lookup(Map<Node, byte[]> fetched) {
        return node -> {
            byte[] hash = fetched.get(node);
            if (hash == null) {
                throw new IllegalStateException("The log holds no hash for " + node);
            }
            return hash;
        };
    }

    /** RFC 9162 2.1.3.2: whether {@code proof} proves the leaf of hash {@code leafHash} at {@code leaf} in the tree of {@code size} and {@code root}. */
    public static boolean verifyInclusion(long leaf, long size, byte[] leafHash, List<byte[]> proof, byte[] root) {
        if (leaf < 0 || leaf >= size) {
            return false;
        }
        long fn = leaf;
        long sn = size - 1;
        byte[] r = leafHash;
        for (byte[] p : proof) {
            if (sn == 0) {
                return false;
            }
            if ((fn & 1) == 1 || fn == sn) {
                r = nodeHash(p, r);
                if ((fn & 1) == 0) {
                    while ((fn & 1) == 0 && fn != 0) {
                        fn >>= 1;
                        sn >>= 1;
                    }
                }
            } else {
                r = nodeHash(r, p);
            }
            fn >>= 1;
            sn >>= 1;
        }
        return sn == 0 && Arrays.equals(r, root);
    }

    /** RFC 9162 2.1.4.2: whether {@code proof} proves the tree ({@code first}, {@code firstRoot}) a prefix of ({@code second}, {@code secondRoot}). */
    public static boolean verifyConsistency(long first, long second, byte[] firstRoot, byte[] secondRoot, List<byte[]> proof) {
        if (first <= 0 || first > second) {
            return false;
        }
        if (first == second) {
            return proof.isEmpty() && Arrays.equals(firstRoot, secondRoot);
        }
        if (proof.isEmpty()) {
            return false;
        }
        List<byte[]> path = new ArrayList<>(proof);
        if (Long.bitCount(first) == 1) {
            path.addFirst(firstRoot);
        }
        long fn = first - 1;
        long sn = second - 1;
        while ((fn & 1) == 1) {
            fn >>= 1;
            sn >>= 1;
        }
        byte[] fr = path.getFirst();
        byte[] sr = path.getFirst();
        for (byte[] c : path.subList(1, path.size())) {
            if (sn == 0) {
                return false;
            }
            if ((fn & 1) == 1 || fn == sn) {
                fr = nodeHash(c, fr);
                sr = nodeHash(c, sr);
                if ((fn & 1) == 0) {
                    while ((fn & 1) == 0 && fn != 0) {
                        fn >>= 1;
                        sn >>= 1;
                    }
                }
            } else {
                sr = nodeHash(sr, c);
            }
            fn >>= 1;
            sn >>= 1;
        }
        return sn == 0 && Arrays.equals(fr, firstRoot) && Arrays.equals(sr, secondRoot);
    }

    /** {@code MTH(D[start:end])}: a perfect subtree read as one node, any other split as RFC 9162 splits it. */
    private static byte[] subtree(long start, long end, Function<Node, byte[]> nodes) {
        long width = end - start;
        if (Long.bitCount(width) == 1) {
            int level = Long.numberOfTrailingZeros(width);
            return nodes.apply(new Node(level, start >> level));
        }
        long k = Long.highestOneBit(width - 1);
        return nodeHash(subtree(start, start + k, nodes), subtree(start + k, end, nodes));
    }

    private static void path(long leaf, long start, long end, Function<Node, byte[]> nodes, List<byte[]> path) {
        long width = end - start;
        if (width <= 1) {
            return;
        }
        long k = Long.highestOneBit(width - 1);
        if (leaf < start + k) {
            path(leaf, start, start + k, nodes, path);
            path.add(subtree(start + k, end, nodes));
        } else {
            path(leaf, start + k, end, nodes, path);
            path.add(subtree(start, start + k, nodes));
        }
    }

    private static void subproof(long first, long start, long end, boolean whole, Function<Node, byte[]> nodes, List<byte[]> proof) {
        long width = end - start;
        if (first == width) {
            if (!whole) {
                proof.add(subtree(start, end, nodes));
            }
            return;
        }
        long k = Long.highestOneBit(width - 1);
        if (first <= k) {
            subproof(first, start, start + k, whole, nodes, proof);
            proof.add(subtree(start + k, end, nodes));
        } else {
            subproof(first - k, start + k, end, false, nodes, proof);
            proof.add(subtree(start, start + k, nodes));
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException impossible) {
            throw new IllegalStateException("Every Java platform has SHA-256", impossible);
        }
    }
}
