#include <gtest/gtest.h>

#include "geometry/geometry.hpp"

using namespace polycube;

TEST(Geometry, RotationGroupsHaveExpectedSizes) {
    EXPECT_EQ(properRotations().size(), 24u);
    EXPECT_EQ(zRotations().size(), 4u);
    EXPECT_EQ(orthogonalTransforms().size(), 48u);
    EXPECT_TRUE(properRotations()[0].isIdentity());
    for (const Rotation& r : properRotations()) EXPECT_EQ(r.determinant(), 1);
    for (size_t i = 24; i < 48; ++i) EXPECT_EQ(orthogonalTransforms()[i].determinant(), -1);
}

TEST(Geometry, OrientationCountsOfKnownShapes) {
    Cells lTetromino = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 1, 0}};
    Cells xPentomino = {{1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {2, 1, 0}, {1, 2, 0}};
    Cells fPentomino = {{1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {2, 1, 0}, {2, 2, 0}};
    EXPECT_EQ(distinctOrientations(lTetromino, properRotations()).size(), 24u);
    EXPECT_EQ(distinctOrientations(xPentomino, properRotations()).size(), 3u);
    // Free pentomino F: 8 orientations in the plane, one-sided: 4.
    EXPECT_EQ(distinctOrientations(fPentomino, zRotations()).size(), 4u);
    EXPECT_EQ(canonicalForm(fPentomino, properRotations()), canonicalForm(mirrored(fPentomino), properRotations()));
    EXPECT_NE(canonicalForm(fPentomino, zRotations()), canonicalForm(mirrored(fPentomino), zRotations()));
}

TEST(Geometry, Connectivity) {
    EXPECT_TRUE(isConnected({{0, 0, 0}, {0, 0, 1}}));
    EXPECT_FALSE(isConnected({{0, 0, 0}, {1, 1, 0}}));
}
