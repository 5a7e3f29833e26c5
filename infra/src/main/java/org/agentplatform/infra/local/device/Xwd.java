package org.agentplatform.infra.local.device;

import java.awt.image.BufferedImage;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Reads an X window dump (XWD, version 7, ZPixmap of 24 or 32 bits per pixel with true-colour masks): the format
 * in which {@code Xvfb -fbdir} keeps its framebuffer, so a screenshot is the display's own memory.
 */
final class Xwd {

    private static final int HEADER_FIELDS = 25;
    private static final int COLOR_ENTRY = 12;

    private Xwd() {
    }

    static BufferedImage read(ByteBuffer dump) {
        ByteBuffer header = dump.duplicate().order(ByteOrder.BIG_ENDIAN);
        int[] field = new int[HEADER_FIELDS];
        for (int index = 0; index < HEADER_FIELDS; index++) {
            field[index] = header.getInt(index * 4);
        }
        int headerSize = field[0];
        int version = field[1];
        int format = field[2];
        int width = field[4];
        int height = field[5];
        int byteOrder = field[7];
        int bitsPerPixel = field[11];
        int bytesPerLine = field[12];
        int redMask = field[14];
        int greenMask = field[15];
        int blueMask = field[16];
        int colors = field[19];
        if (version != 7 || format != 2 || (bitsPerPixel != 32 && bitsPerPixel != 24) || width <= 0 || height <= 0) {
            throw new IllegalStateException("Not a true-colour XWD framebuffer (version " + version + ", format " + format + ", "
                    + bitsPerPixel + " bits per pixel)");
        }
        int pixels = headerSize + colors * COLOR_ENTRY;
        ByteBuffer data = dump.duplicate().order(byteOrder == 0 ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);
        int bytesPerPixel = bitsPerPixel / 8;
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < height; y++) {
            int row = pixels + y * bytesPerLine;
            for (int x = 0; x < width; x++) {
                int at = row + x * bytesPerPixel;
                int value = bytesPerPixel == 4 ? data.getInt(at) : threeBytes(data, at);
                image.setRGB(x, y, (channel(value, redMask) << 16) | (channel(value, greenMask) << 8) | channel(value, blueMask));
            }
        }
        return image;
    }

    private static int threeBytes(ByteBuffer data, int at) {
        int b0 = data.get(at) & 0xff;
        int b1 = data.get(at + 1) & 0xff;
        int b2 = data.get(at + 2) & 0xff;
        return data.order() == ByteOrder.LITTLE_ENDIAN ? b0 | (b1 << 8) | (b2 << 16) : (b0 << 16) | (b1 << 8) | b2;
    }

    /** The 8-bit value of the channel under {@code mask}. */
    private static int channel(int value, int mask) {
        if (mask == 0) {
            return 0;
        }
        int shift = Integer.numberOfTrailingZeros(mask);
        int bits = Integer.bitCount(mask);
        int raw = (value & mask) >>> shift;
        return bits >= 8 ? raw >>> (bits - 8) : raw << (8 - bits);
    }
}
