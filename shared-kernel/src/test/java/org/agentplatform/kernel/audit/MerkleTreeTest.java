package org.agentplatform.kernel.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.agentplatform.kernel.audit.MerkleTree.Node;
import org.junit.jupiter.api.Test;

/**
 * The tree against RFC 9162's definitions written out naively over the leaves (MTH, PATH, PROOF as the RFC recurses),
 * against the published test vectors of RFC 6962's trees (same hashing), and its verifiers against tampered proofs.
 */
class MerkleTreeTest {

    private static final HexFormat HEX = HexFormat.of();

    /** The leaves of the test vectors used by Certificate Transparency's implementations, and their roots for sizes 1 to 8. */
    private static final List<byte[]> VECTOR_LEAVES = List.of("", "00", "10", "2021", "3031", "40414243", "5051525354555657",
            "606162636465666768696a6b6c6d6e6f").stream().map(HEX::parseHex).toList();
    private static final List<String> VECTOR_ROOTS = List.of(
            "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
            "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
            "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
            "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
            "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
            "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
            "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328");

    @Test
    void theRootsAreThoseOfThePublishedVectors() {
        List<byte[]> leaves = VECTOR_LEAVES.stream().map(MerkleTree::leafHash).toList();
        Function<Node, byte[]> nodes = perfectNodes(leaves);
        for (int size = 1; size <= 8; size++) {
            assertThat(HEX.formatHex(MerkleTree.root(size, nodes))).as("root of %d", size).isEqualTo(VECTOR_ROOTS.get(size - 1));
        }
        assertThat(HEX.formatHex(MerkleTree.root(0, nodes))).isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    }

    @Test
    void rootsAndProofsFromPerfectSubtreesAreTheRfcsOwn() {
        List<byte[]> leaves = leaves(70);
        Function<Node, byte[]> nodes = perfectNodes(leaves);
        for (int size = 1; size <= leaves.size(); size++) {
            List<byte[]> tree = leaves.subList(0, size);
            byte[] root = MerkleTree.root(size, nodes);
            assertThat(root).isEqualTo(mth(tree));
            for (int leaf = 0; leaf < size; leaf++) {
                List<byte[]> proof = MerkleTree.inclusionProof(leaf, size, nodes);
                assertThat(proof).as("path of %d in %d", leaf, size).containsExactlyElementsOf(path(leaf, tree));
                assertThat(MerkleTree.verifyInclusion(leaf, size, leaves.get(leaf), proof, root)).isTrue();
            }
            for (int first = 1; first <= size; first++) {
                List<byte[]> proof = MerkleTree.consistencyProof(first, size, nodes);
                assertThat(proof).as("proof from %d to %d", first, size).containsExactlyElementsOf(subproof(first, tree, true));
                assertThat(MerkleTree.verifyConsistency(first, size, mth(leaves.subList(0, first)), root, proof)).isTrue();
            }
        }
    }

    @Test
    void aProofOfAnythingElseFails() {
        List<byte[]> leaves = leaves(37);
        Function<Node, byte[]> nodes = perfectNodes(leaves);
        byte[] root = MerkleTree.root(37, nodes);
        List<byte[]> path = MerkleTree.inclusionProof(20, 37, nodes);
        assertThat(MerkleTree.verifyInclusion(21, 37, leaves.get(20), path, root)).as("another index").isFalse();
        assertThat(MerkleTree.verifyInclusion(20, 37, leaves.get(21), path, root)).as("another leaf").isFalse();
        assertThat(MerkleTree.verifyInclusion(20, 21, leaves.get(20), path, root)).as("another size (of another shape)").isFalse();
        assertThat(MerkleTree.verifyInclusion(20, 37, leaves.get(20), tampered(path, 2), root)).as("an edited hash").isFalse();
        assertThat(MerkleTree.verifyInclusion(20, 37, leaves.get(20), path.subList(0, path.size() - 1), root)).as("a short path").isFalse();

        byte[] first = MerkleTree.root(13, nodes);
        List<byte[]> proof = MerkleTree.consistencyProof(13, 37, nodes);
        assertThat(MerkleTree.verifyConsistency(13, 37, first, root, tampered(proof, 1))).as("an edited hash").isFalse();
        assertThat(MerkleTree.verifyConsistency(12, 37, first, root, proof)).as("another first size").isFalse();
        assertThat(MerkleTree.verifyConsistency(13, 37, MerkleTree.root(12, nodes), root, proof)).as("another first root").isFalse();
        assertThat(MerkleTree.verifyConsistency(13, 37, first, first, proof)).as("another second root").isFalse();
        assertThat(MerkleTree.verifyConsistency(13, 37, first, root, List.of())).as("no proof").isFalse();
    }

    @Test
    void aProofReadsLogarithmicallyManyNodes() {
        long size = (1L << 40) + 12_345;
        assertThat(MerkleTree.nodesRead(nodes -> MerkleTree.inclusionProof(size / 3, size, nodes))).hasSizeLessThanOrEqualTo(2 * 41);
        assertThat(MerkleTree.nodesRead(nodes -> MerkleTree.consistencyProof(size / 7, size, nodes))).hasSizeLessThanOrEqualTo(4 * 41);
        assertThat(MerkleTree.nodesRead(nodes -> MerkleTree.root(size, nodes))).containsExactlyElementsOf(MerkleTree.rightEdge(size));
    }

    private static List<byte[]> leaves(int count) {
        List<byte[]> leaves = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            leaves.add(MerkleTree.leafHash(("event " + i).getBytes(StandardCharsets.UTF_8)));
        }
        return leaves;
    }

    /** Every perfect subtree's hash, built bottom up the way a log appends. */
    private static Function<Node, byte[]> perfectNodes(List<byte[]> leafHashes) {
        Map<Node, byte[]> nodes = new HashMap<>();
        for (int i = 0; i < leafHashes.size(); i++) {
            nodes.put(new Node(0, i), leafHashes.get(i));
        }
        for (int level = 1; (1L << level) <= leafHashes.size(); level++) {
            for (long index = 0; (index + 1) << level <= leafHashes.size(); index++) {
                nodes.put(new Node(level, index), MerkleTree.nodeHash(nodes.get(new Node(level - 1, 2 * index)),
                        nodes.get(new Node(level - 1, 2 * index + 1))));
            }
        }
        return MerkleTree.lookup(nodes);
    }

    private static List<byte[]> tampered(List<byte[]> proof, int at) {
        List<byte[]> edited = new ArrayList<>(proof);
        byte[] hash = edited.get(at).clone();
        hash[0] ^= 1;
        edited.set(at, hash);
        return edited;
    }

    // RFC 9162 2.1.1, 2.1.3.1 and 2.1.4.1, over the leaves' hashes

    private static int split(int n) {
        return Integer.highestOneBit(n - 1);
    }

    private static byte[] mth(List<byte[]> d) {
        if (d.size() == 1) {
            return d.getFirst();
        }
        int k = split(d.size());
        return MerkleTree.nodeHash(mth(d.subList(0, k)), mth(d.subList(k, d.size())));
    }

    private static List<byte[]> path(int m, List<byte[]> d) {
        List<byte[]> path = new ArrayList<>();
        if (d.size() > 1) {
            int k = split(d.size());
            if (m < k) {
                path.addAll(path(m, d.subList(0, k)));
                path.add(mth(d.subList(k, d.size())));
            } else {
                path.addAll(path(m - k, d.subList(k, d.size())));
                path.add(mth(d.subList(0, k)));
            }
        }
        return path;
    }

    private static List<byte[]> subproof(int m, List<byte[]> d, boolean b) {
        List<byte[]> proof = new ArrayList<>();
        if (m == d.size()) {
            if (!b) {
                proof.add(mth(d));
            }
            return proof;
        }
        int k = split(d.size());
        if (m <= k) {
            proof.addAll(subproof(m, d.subList(0, k), b));
            proof.add(mth(d.subList(k, d.size())));
        } else {
            proof.addAll(subproof(m - k, d.subList(k, d.size()), false));
            proof.add(mth(d.subList(0, k)));
        }
        return proof;
    }
}
